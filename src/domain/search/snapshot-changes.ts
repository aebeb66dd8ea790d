import type { EntryStat, FileSystemPort } from '../ports/file-system.port.js';
import type { Root } from '../roots.js';
import { isOwnWorkFile } from '../work-files.js';
import { IGNORE_FILE_NAMES } from './ignore-rules.js';
import type { SnapshotDirectory, WalkSnapshot } from './walk-snapshot.js';

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
    const placed = place(snapshot, held.parent, segments[segments.length - 1]!, stat);
    if (placed === undefined) return 'rewalk';
    if (!placed) outcome = 'partial';
  }
  for (const segments of folders.values()) {
    const held = snapshot.entryAt(segments);
    if (held === undefined || held.index < 0) continue;
    const row = held.parent.row(held.index);
    if (!snapshot.rows.hasStat(row) || snapshot.rows.kind(row) !== 'directory') continue;
    const stat = await fs.stat({ root, segments }, { followSymlinks: false });
    const placed = place(snapshot, held.parent, segments[segments.length - 1]!, stat);
    if (placed === undefined) return 'rewalk';
    if (!placed) outcome = 'partial';
  }
  return outcome;
}

/**
 * Puts what is at `name` now into `parent`: false when a directory came that the snapshot did not
 * enter, undefined when the snapshot cannot hold it (then only a walk can tell).
 */
function place(snapshot: WalkSnapshot, parent: SnapshotDirectory, name: string, stat: EntryStat | null): boolean | undefined {
  const rows = snapshot.rows;
  const index = parent.find(name);
  if (stat === null) {
    if (index >= 0) {
      snapshot.setDirectory(parent.row(index), undefined);
      parent.remove(index);
    }
    return true;
  }
  if (index < 0) {
    const row = rows.add(stat.kind, stat);
    if (row === undefined) return undefined;
    parent.insert(parent.insertionPoint(name), name, row);
    return stat.kind !== 'directory';
  }
  const row = parent.row(index);
  const stated = rows.hasStat(row);
  // The same directory (same inode) keeps what the snapshot knows of it; another one is scanned live.
  const sameDirectory = rows.kind(row) === 'directory' && stat.kind === 'directory' && stated && rows.inode(row) === stat.inode && snapshot.directoryOf(row) !== undefined;
  if (!sameDirectory) snapshot.setDirectory(row, undefined);
  // An entry the build's rules passed over stays without a stat: a replay stats it if it is ever selected.
  if (!rows.set(row, stat.kind, stated ? stat : undefined)) return undefined;
  return stat.kind !== 'directory' || sameDirectory || !stated;
}
