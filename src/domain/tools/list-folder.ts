import { compareCodePoints } from '../code-point-order.js';
import { errors } from '../errors.js';
import { isoTimeFormatter } from '../iso-time.js';
import type { EntryStat, FileSystemPort } from '../ports/file-system.port.js';
import { displayPath } from '../roots.js';
import type { RootAccess } from './root-access.js';

export type LinkTargetType = 'file' | 'directory' | 'other' | 'external' | 'broken';

export interface FolderEntry {
  name: string;
  type: EntryStat['kind'];
  size: number;
  modified_at: string;
  /** Symlinks only: what the link leads to, judged inside the root. */
  target_type?: LinkTargetType;
}

export interface ListFolderResult {
  path: string;
  entries: FolderEntry[];
  count: number;
}

/** FR-004: immediate children, sorted by name in code point order. */
export class ListFolder {
  constructor(
    private readonly access: RootAccess,
    private readonly fs: FileSystemPort,
  ) {}

  async execute(input: { root: string; path: string }): Promise<ListFolderResult> {
    const target = this.access.path('list_folder', input.root, input.path);
    const shown = displayPath(target);
    const directory = await this.fs.stat(target, { followSymlinks: true });
    if (!directory) throw errors.notFound('directory', target.root.name, shown);
    if (directory.kind !== 'directory') throw errors.notADirectory(target.root.name, shown);
    const isoTime = isoTimeFormatter();
    const entries = (await this.fs.readDirectory(target)).map((stat) => toEntry(stat, isoTime));
    entries.sort((a, b) => compareCodePoints(a.name, b.name));
    return { path: shown, entries, count: entries.length };
  }
}

function toEntry(stat: EntryStat, isoTime: (date: Date) => string): FolderEntry {
  const entry: FolderEntry = { name: stat.name, type: stat.kind, size: stat.size, modified_at: isoTime(stat.modifiedAt) };
  if (stat.kind === 'symlink') entry.target_type = linkTargetType(stat);
  return entry;
}

function linkTargetType(stat: EntryStat): LinkTargetType {
  switch (stat.link?.resolution) {
    case 'inside':
      return stat.link.targetKind === 'file' || stat.link.targetKind === 'directory' ? stat.link.targetKind : 'other';
    case 'outside':
      return 'external';
    default:
      return 'broken';
  }
}
