import { DomainError, inRoot } from '../errors.js';
import type { FileSystemPort } from '../ports/file-system.port.js';
import { displayPath } from '../roots.js';
import type { RootAccess } from './root-access.js';

export interface CreateFolderResult {
  path: string;
  created: true;
  already_existed: boolean;
}

/** FR-009: mkdir -p, idempotent. */
export class CreateFolder {
  constructor(
    private readonly access: RootAccess,
    private readonly fs: FileSystemPort,
  ) {}

  async execute(input: { root: string; path: string }): Promise<CreateFolderResult> {
    const target = this.access.path('create_folder', input.root, input.path);
    const shown = displayPath(target);
    const existing = await this.fs.stat(target, { followSymlinks: true });
    if (existing && existing.kind !== 'directory') {
      throw new DomainError('NOT_A_DIRECTORY', `path exists as a file: ${shown}${inRoot(target.root.name)}`, {
        root: target.root.name,
        attemptedPath: shown,
      });
    }
    const { created } = await this.fs.createDirectory(target);
    return { path: shown, created: true, already_existed: !created };
  }
}
