import type { EditSessions } from '../edit-session.js';
import { DomainError } from '../errors.js';
import type { Namespace } from '../namespace.js';
import type { FileSystemPort } from '../ports/file-system.port.js';
import { assertDirectory } from './editor-files.js';

export const TOOL = 'change_directory';

export interface ChangeDirectoryInput {
  readonly sessionId: string;
  readonly path: string;
}

export interface ChangeDirectoryResult {
  /** The session's new working directory (a namespace path). */
  readonly cwd: string;
}

/**
 * Moves the session's working directory, against which the namespace tools resolve
 * relative paths. Always available, like list_roots: it reads nothing but whether a
 * directory exists, and every tool used from there still checks its own allowlist.
 * The cwd is kept as written (links are followed at each use, never baked in).
 */
export class ChangeDirectory {
  constructor(
    private readonly namespace: Namespace,
    private readonly sessions: EditSessions,
    private readonly files: FileSystemPort,
  ) {}

  async execute(input: ChangeDirectoryInput): Promise<ChangeDirectoryResult> {
    const session = this.sessions.for(input.sessionId);
    const target = this.namespace.locate(null, input.path, await session.workingDirectory());
    if (target.kind === 'roots') {
      throw new DomainError('INVALID_ARGUMENT', 'the working directory must be inside a root: / only lists the roots (e.g. change_directory /<root>)');
    }
    await assertDirectory(this.files, target.path, target.display);
    return { cwd: await session.changeDirectory(target.path) };
  }
}
