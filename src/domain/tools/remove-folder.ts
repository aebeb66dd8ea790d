import { DomainError, errors, inRoot } from '../errors.js';
import type { FileSystemPort } from '../ports/file-system.port.js';
import { displayPath, isRootItself, type RootPath } from '../roots.js';
import type { RootAccess } from './root-access.js';
import type { WorkContext } from '../work-context.js';

/** FR-010: rm -rf of one directory below the root; links inside are removed, never followed. */
export class RemoveFolder {
  constructor(
    private readonly access: RootAccess,
    private readonly fs: FileSystemPort,
  ) {}

  async execute(input: { root: string; path: string }, work?: WorkContext): Promise<{ path: string; removed: true }> {
    const target = this.access.path('remove_folder', input.root, input.path);
    const rootName = target.root.name;
    const shown = displayPath(target);
    if (isRootItself(target)) throw errors.invalidArgument(`cannot remove root directory${inRoot(rootName)}`);
    // Not followed: a link named here is itself the thing to remove, and never a way into its target.
    const entry = await this.fs.stat(target);
    if (!entry) throw errors.notFound('directory', rootName, shown);
    if (entry.kind === 'symlink') {
      throw notADirectory(target, `path is a symbolic link, not a directory: ${shown}; use remove_file to remove the link`);
    }
    if (entry.kind !== 'directory') throw notADirectory(target, `path is a file, not a directory: ${shown}; use remove_file`);
    await this.fs.removeDirectory(target, work);
    return { path: shown, removed: true };
  }
}

function notADirectory(target: RootPath, message: string): DomainError {
  return new DomainError('NOT_A_DIRECTORY', `${message}${inRoot(target.root.name)}`, {
    root: target.root.name,
    attemptedPath: displayPath(target),
  });
}
