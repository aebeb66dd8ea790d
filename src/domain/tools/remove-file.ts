import { errors } from '../errors.js';
import type { FileSystemPort } from '../ports/file-system.port.js';
import { displayPath } from '../roots.js';
import type { RootAccess } from './root-access.js';

/** FR-007: one non-directory entry; a symlink is removed itself, never its target. */
export class RemoveFile {
  constructor(
    private readonly access: RootAccess,
    private readonly fs: FileSystemPort,
  ) {}

  async execute(input: { root: string; path: string }): Promise<{ path: string; removed: true }> {
    const target = this.access.path('remove_file', input.root, input.path);
    const shown = displayPath(target);
    const entry = await this.fs.stat(target);
    if (!entry) throw errors.notFound('file', target.root.name, shown);
    if (entry.kind === 'directory') throw errors.isADirectory(target.root.name, shown, '; use remove_folder');
    await this.fs.removeFile(target);
    return { path: shown, removed: true };
  }
}
