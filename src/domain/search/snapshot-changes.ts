import { compareCodePoints } from '../code-point-order.js';
import type { EntryStat, FileSystemPort } from '../ports/file-system.port.js';
import type { Root } from '../roots.js';
import { isOwnWorkFile } from '../work-files.js';
import { IGNORE_FILE_NAMES } from './ignore-rules.js';
import { findEntry, type SnapshotDirectory, type WalkSnapshot } from './walk-snapshot.js';

/**
 * What applying changes did: 'exact' (the snapshot is the tree again), 'partial' (exact, but some
 * directory is new or replaced and will be scanned live until a rebuild), 'rewalk' (a rule file
 * changed: what the walk passes over may have changed anywhere below, so only a walk can tell).
 */
export type ChangesOutcome = 'exact' | 'partial' | 'rewalk';

/**
 * Brings a snapshot up to date with the root-relative paths a tree watch told: each is looked at
 * again through the confined port (lstat: a link is an entry, never followed) and its entry added,
 * replaced or dropped (with all below it), and each folder holding one is stat'ed again (its mtime
 * moved). Shallow paths first, so a folder replaced by a link is dropped before anything below it
 * is looked up through it.
 */
export async function applyTreeChanges(fs: FileSystemPort, root: Root, snapshot: WalkSnapshot, paths: Iterable<string>): Promise<ChangesOutcome> {
  const sorted = [...new Set(paths)].map((path) => path.split('/')).sort((a, b) => a.length - b.length);
  if (sorted.some((segments) => (IGNORE_FILE_NAMES as readonly string[]).includes(segments[segments.length - 1]!))) return 'rewalk';
  let outcome: ChangesOutcome = 'exact';
  const folders = new Map<string, readonly string[]>();
  for (const segments of sorted) {
    const held = snapshot.entryAt(segments);
    // Below a folder the snapshot does not hold (ignored, new, gone): a replay scans or skips it live.
    if (held === undefined) continue;
    // A work file is never listed, but making and removing it moved its folder's mtime.
    if (segments.length > 1) folders.set(segments.slice(0, -1).join('/'), segments.slice(0, -1));
    if (isOwnWorkFile(segments[segments.length - 1]!)) continue;
    const stat = await fs.stat({ root, segments }, { followSymlinks: false });
    if (!place(held.parent, segments[segments.length - 1]!, stat)) outcome = 'partial';
  }
  for (const segments of folders.values()) {
    const held = snapshot.entryAt(segments);
    if (held?.entry?.stat === undefined || held.entry.kind !== 'directory') continue;
    const stat = await fs.stat({ root, segments }, { followSymlinks: false });
    if (!place(held.parent, segments[segments.length - 1]!, stat)) outcome = 'partial';
  }
  return outcome;
}

/** Puts what is at `name` now into `parent`; false when a directory came that the snapshot did not enter. */
function place(parent: SnapshotDirectory, name: string, stat: EntryStat | null): boolean {
  const entry = findEntry(parent, name);
  if (stat === null) {
    if (entry !== undefined) parent.entries.splice(parent.entries.indexOf(entry), 1);
    return true;
  }
  const scanStat = withoutLink(stat);
  if (entry === undefined) {
    const index = insertionPoint(parent, name);
    parent.entries.splice(index, 0, { name, kind: stat.kind, stat: scanStat });
    return stat.kind !== 'directory';
  }
  // The same directory (same inode) keeps what the snapshot knows of it; another one is scanned live.
  const sameDirectory = entry.kind === 'directory' && stat.kind === 'directory' && entry.stat?.inode === stat.inode && entry.directory !== undefined;
  if (!sameDirectory) entry.directory = undefined;
  entry.kind = stat.kind;
  // An entry the build's rules passed over stays without a stat: a replay stats it if it is ever selected.
  if (entry.stat !== undefined) entry.stat = scanStat;
  return stat.kind !== 'directory' || sameDirectory || entry.stat === undefined;
}

/** A scan describes no link target. */
function withoutLink(stat: EntryStat): EntryStat {
  if (stat.link === undefined) return stat;
  const { link: _link, ...rest } = stat;
  return rest;
}

function insertionPoint(parent: SnapshotDirectory, name: string): number {
  let low = 0;
  let high = parent.entries.length;
  while (low < high) {
    const middle = (low + high) >> 1;
    if (compareCodePoints(parent.entries[middle]!.name, name) < 0) low = middle + 1;
    else high = middle;
  }
  return low;
}
