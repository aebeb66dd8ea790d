import { constants } from 'node:fs';
import { DomainError } from '../../../domain/errors.js';
import { resolveLinkTarget } from '../../../domain/path-policy.js';
import { recentDates } from '../../../domain/recent-dates.js';
import type { EntryKind, EntryStat, LinkInfo } from '../../../domain/ports/file-system.port.js';
import type { RootPath } from '../../../domain/roots.js';
import { SymlinkLoopError } from './node-errors.js';
import type { LstatFields } from './parallel-lstat.js';
import { Walk, type Walker } from './walker.js';

/** The kind in the mode's file type bits, as Stats.isFile() and its siblings read them. */
export function kindOf(stats: Pick<LstatFields, 'mode'>): EntryKind {
  switch (stats.mode & constants.S_IFMT) {
    case constants.S_IFREG:
      return 'file';
    case constants.S_IFDIR:
      return 'directory';
    case constants.S_IFLNK:
      return 'symlink';
    default:
      return 'other';
  }
}

/** The Dates of the stats made here, shared by instant (see recentDates). */
const dateOf = recentDates();

export function toEntryStat(name: string, stats: LstatFields, link?: LinkInfo): EntryStat {
  // Built field by field (no spreads): listings and scans make one per entry. The Dates are made here
  // rather than taking stats.mtime, so they belong to our realm (jest's vm too).
  const kind = kindOf(stats);
  const modifiedAt = dateOf(stats.mtimeMs);
  const permissions = stats.mode & 0o7777;
  const { size, uid, gid, ino: inode } = stats;
  // One literal per shape: a createdAt added afterwards gave every stat a second, out-of-object store.
  const entry: { -readonly [K in keyof EntryStat]: EntryStat[K] } =
    stats.birthtimeMs > 0
      ? { name, kind, size, modifiedAt, permissions, uid, gid, inode, createdAt: dateOf(stats.birthtimeMs) }
      : { name, kind, size, modifiedAt, permissions, uid, gid, inode };
  if (link) entry.link = link;
  return entry;
}

/**
 * Where the link with text `text` in directory `linkDirectory` leads, following every hop
 * under the same rules (and the same walker) as real I/O, so a listing never promises a
 * target that an open would refuse.
 */
export async function describeLink(walker: Walker, linkDirectory: RootPath, text: string): Promise<LinkInfo> {
  const first = resolveLinkTarget(linkDirectory, text);
  if (first === null) return { text, resolution: 'outside' };
  const walk = new Walk(first);
  walk.hop();
  try {
    const found = await walker.locate(first, walk, { followFinal: true });
    await found.parent.close();
    if (found.stats === null) return { text, resolution: 'missing', resolvedPath: found.path };
    return { text, resolution: 'inside', resolvedPath: found.path, targetKind: kindOf(found.stats) };
  } catch (error) {
    if (error instanceof SymlinkLoopError) return { text, resolution: 'loop' };
    if (error instanceof DomainError && error.code === 'ACCESS_DENIED') return { text, resolution: 'outside' };
    if (error instanceof DomainError) return { text, resolution: 'missing', resolvedPath: first };
    throw error;
  }
}

/** Runs `task` over `items` with at most `limit` in flight; results keep the input order. */
export async function mapLimit<T, R>(items: readonly T[], limit: number, task: (item: T) => Promise<R>): Promise<R[]> {
  const results = new Array<R>(items.length);
  let next = 0;
  const worker = async (): Promise<void> => {
    while (next < items.length) {
      const index = next++;
      results[index] = await task(items[index]);
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
  return results;
}
