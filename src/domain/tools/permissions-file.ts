import { errors } from '../errors.js';
import type { FileSystemPort } from '../ports/file-system.port.js';
import { displayPath } from '../roots.js';
import { octalMode, symbolicMode } from './file-modes.js';
import type { RootAccess } from './root-access.js';

export interface PermissionsFileResult {
  path: string;
  owner: string;
  group: string;
  mode: string;
  mode_string: string;
  uid: number;
  gid: number;
}

/** FR-013: owner, group and mode of the entry itself (a symlink is not followed). */
export class PermissionsFile {
  constructor(
    private readonly access: RootAccess,
    private readonly fs: FileSystemPort,
  ) {}

  async execute(input: { root: string; path: string }): Promise<PermissionsFileResult> {
    const target = this.access.path('permissions_file', input.root, input.path);
    const shown = displayPath(target);
    const entry = await this.fs.stat(target);
    if (!entry) throw errors.notFound('file', target.root.name, shown);
    const { owner, group } = await this.fs.ownerNames(entry.uid, entry.gid);
    return {
      path: shown,
      owner,
      group,
      mode: octalMode(entry.permissions),
      mode_string: symbolicMode(entry.kind, entry.permissions),
      uid: entry.uid,
      gid: entry.gid,
    };
  }
}
