import { errors } from '../errors.js';
import type { EntryKind, EntryStat, FileSystemPort } from '../ports/file-system.port.js';
import { baseName, displayPath, type RootPath } from '../roots.js';
import { octalMode } from './file-modes.js';
import type { RootAccess } from './root-access.js';

export interface LinkTarget {
  path: string;
  size: number;
  is_directory: boolean;
  modified_at: string;
  type: EntryKind;
}

export interface StatFileResult {
  name: string;
  path: string;
  size: number;
  is_directory: boolean;
  is_symlink: boolean;
  modified_at: string;
  created_at?: string;
  permissions: string;
  /** Symlinks whose target is inside the root. */
  target?: LinkTarget;
  /** Symlinks leading outside the root: the target is not described. */
  target_outside_root?: true;
  /** Dangling symlinks (or link loops). */
  target_missing?: true;
}

/** FR-011: metadata of the entry itself; for a symlink, also of its in-root target. */
export class StatFile {
  constructor(
    private readonly access: RootAccess,
    private readonly fs: FileSystemPort,
  ) {}

  async execute(input: { root: string; path: string }): Promise<StatFileResult> {
    const target = this.access.path('stat_file', input.root, input.path);
    const shown = displayPath(target);
    const entry = await this.fs.stat(target);
    if (!entry) throw errors.notFound('file', target.root.name, shown);
    const result: StatFileResult = {
      name: baseName(target) || '.',
      path: shown,
      size: entry.size,
      is_directory: entry.kind === 'directory',
      is_symlink: entry.kind === 'symlink',
      modified_at: entry.modifiedAt.toISOString(),
      ...(entry.createdAt && { created_at: entry.createdAt.toISOString() }),
      permissions: octalMode(entry.permissions),
    };
    return entry.kind === 'symlink' ? { ...result, ...(await this.describeTarget(target, entry)) } : result;
  }

  private async describeTarget(
    path: RootPath,
    link: EntryStat,
  ): Promise<Pick<StatFileResult, 'target' | 'target_outside_root' | 'target_missing'>> {
    // Security: only an in-root target is described; for an outside one even its existence stays unsaid.
    if (link.link?.resolution === 'outside') return { target_outside_root: true };
    const resolved = link.link?.resolution === 'inside' ? link.link.resolvedPath : undefined;
    const followed = resolved ? await this.fs.stat(path, { followSymlinks: true }) : null;
    if (!resolved || !followed) return { target_missing: true };
    return {
      target: {
        path: displayPath(resolved),
        size: followed.size,
        is_directory: followed.kind === 'directory',
        modified_at: followed.modifiedAt.toISOString(),
        type: followed.kind,
      },
    };
  }
}
