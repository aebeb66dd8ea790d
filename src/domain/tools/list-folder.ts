import { compareCodePoints, sortByCodePoints } from '../code-point-order.js';
import { errors } from '../errors.js';
import { isoTimeFormatter } from '../iso-time.js';
import type { EntryStat, FileSystemPort, LinkInfo } from '../ports/file-system.port.js';
import { displayPath, type RootPath } from '../roots.js';
import { namingRoot } from '../search/argument-errors.js';
import type { WorkContext } from '../work-context.js';
import { ignoreMode, ignoreRulesFor, type IgnoreRules } from '../search/ignore-rules.js';
import { IgnoreRuleCache } from '../search/ignore-rule-cache.js';
import type { Settings } from '../settings.js';
import { listSubtree, type SubtreeLimits, subtreeLimits } from './list-subtree.js';
import type { RootAccess } from './root-access.js';

export type LinkTargetType = 'file' | 'directory' | 'other' | 'external' | 'broken';

export interface FolderEntry {
  name: string;
  /** depth > 1 only: the path relative to the listed folder. */
  path?: string;
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
  /** Only when max_entries left entries out. */
  truncated?: boolean;
  /** How many were left out, when counted. */
  omitted?: number;
  /** depth > 1 with ignore rules: entries passed over. */
  ignored?: number;
}

export interface ListFolderInput {
  readonly root: string;
  readonly path: string;
  readonly depth?: number;
  readonly max_entries?: number;
  /** depth > 1 only (issue 19): gitignore or none; default search.ignore. */
  readonly ignore?: string;
}

/**
 * FR-004: immediate children, sorted by name in code point order. Issue 19: with depth > 1 the
 * subtree down to that depth, each directory's entries right after it, at most max_entries.
 */
export class ListFolder {
  constructor(
    private readonly access: RootAccess,
    private readonly fs: FileSystemPort,
    private readonly settings?: Settings,
    /** Compiled ignore files; the composition root shares one (with the logger) between the tools. */
    private readonly ignoreCache = new IgnoreRuleCache(),
  ) {}

  async execute(input: ListFolderInput, work?: WorkContext): Promise<ListFolderResult> {
    const target = this.access.path('list_folder', input.root, input.path);
    const { limits, ignore } = namingRoot(target.root.name, () => ({ limits: subtreeLimits(input), ignore: ignoreMode(input.ignore, this.settings?.search.ignore) }));
    const shown = displayPath(target);
    const directory = await this.fs.stat(target, { followSymlinks: true });
    if (!directory) throw errors.notFound('directory', target.root.name, shown);
    if (directory.kind !== 'directory') throw errors.notADirectory(target.root.name, shown);
    if (limits.depth > 1) return this.subtree(target, shown, limits, await ignoreRulesFor(this.fs, target, ignore, this.ignoreCache), work);
    const isoTime = isoTimeFormatter();
    const entries = (await this.fs.readDirectory(target)).map((stat) => toEntry(stat, isoTime));
    sortByCodePoints(entries, (entry) => entry.name);
    // Depth 1 answers as it always did; max_entries cuts it only when the caller gave one.
    if (input.max_entries === undefined || entries.length <= limits.maxEntries) return { path: shown, entries, count: entries.length };
    const kept = entries.slice(0, limits.maxEntries);
    return { path: shown, entries: kept, count: kept.length, truncated: true, omitted: entries.length - kept.length };
  }

  private async subtree(target: RootPath, shown: string, limits: SubtreeLimits, rules: IgnoreRules | undefined, work?: WorkContext): Promise<ListFolderResult> {
    const subtree = await listSubtree(this.fs, target, limits, { work, rules });
    const entries: FolderEntry[] = [];
    for (const entry of subtree.entries) {
      const listed: FolderEntry = { ...entry };
      // A scan reports a link without where it leads: each one is looked up, confined like any lookup.
      if (entry.type === 'symlink') listed.target_type = linkTargetType((await this.linkOf(target, entry.path))?.link);
      entries.push(listed);
    }
    const result: ListFolderResult = { path: shown, entries, count: entries.length };
    if (subtree.truncated) result.truncated = true;
    if (subtree.omitted !== undefined) result.omitted = subtree.omitted;
    if (rules !== undefined) result.ignored = rules.ignored;
    return result;
  }

  private async linkOf(start: RootPath, relativePath: string): Promise<EntryStat | null> {
    return this.fs.stat({ root: start.root, segments: [...start.segments, ...relativePath.split('/')] });
  }
}

function toEntry(stat: EntryStat, isoTime: (date: Date) => string): FolderEntry {
  const entry: FolderEntry = { name: stat.name, type: stat.kind, size: stat.size, modified_at: isoTime(stat.modifiedAt) };
  if (stat.kind === 'symlink') entry.target_type = linkTargetType(stat.link);
  return entry;
}

function linkTargetType(link: LinkInfo | undefined): LinkTargetType {
  if (link?.resolution === 'inside') return link.targetKind === 'file' || link.targetKind === 'directory' ? link.targetKind : 'other';
  return link?.resolution === 'outside' ? 'external' : 'broken';
}
