import type { FileSystemPort } from '../ports/file-system.port.js';
import type { RootPath } from '../roots.js';
import type { RootAccess } from './root-access.js';

/** A source and a destination, in one root or across two: what copy and move take. */
export interface TransferInput {
  readonly source_root: string;
  readonly source_path: string;
  readonly dest_root: string;
  readonly dest_path: string;
}

/** What copy and move share: the file system, root access, and how they resolve their two ends. */
export abstract class Transfer {
  constructor(
    protected readonly fs: FileSystemPort,
    protected readonly access: RootAccess,
  ) {}

  /** Security: both allowlists are checked before either path is touched (E2E-067/068). */
  protected endpoints(tool: 'copy' | 'move', input: TransferInput): { source: RootPath; destination: RootPath } {
    return this.access.pair(tool, { root: input.source_root, path: input.source_path }, { root: input.dest_root, path: input.dest_path });
  }
}
