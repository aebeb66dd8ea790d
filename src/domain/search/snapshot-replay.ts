import type { EntryStat, FileSystemPort } from '../ports/file-system.port.js';
import type { ScannedEntry, TreeScanBatch, TreeScanOptions } from '../ports/tree-scan-types.js';
import type { RootPath } from '../roots.js';
import type { IndexedLookup, IndexVerdict } from './index-freshness.js';
import type { SnapshotDirectory } from './snapshot-directory.js';
import { IGNORE_KEPT, IGNORE_PRUNED, IGNORE_UNKNOWN, INDEX_UNKNOWN } from './snapshot-rows.js';
import type { WalkSnapshot } from './walk-snapshot.js';

/** Entries a replay looks at in one batch at most: the caller looks at its limits between batches. */
const ENTRIES_PER_BATCH = 1024;

/** What a caller lets a replay judge from the verdicts the snapshot keeps per entry. */
export interface ReplayJudges {
  /** The call's ignore rules are `options.prune`: a kept verdict stands for it while `key` is the same; `passOver` counts a pruned one. */
  readonly ignore?: { readonly key: readonly unknown[]; readonly passOver: (relativePath: string) => void };
  /** grep's index: a file it vouches holds no match is counted in `nothing`, not reported. */
  readonly index?: IndexedLookup;
  /** `select(path, 'file')` holds for every file (no filter): it is not asked about files. */
  readonly everyFile?: boolean;
}

/** An entry a replay reports: with `judges.index`, the index's verdict already taken. */
export interface ReplayedEntry extends ScannedEntry {
  readonly verdict?: IndexVerdict;
}

export interface ReplayBatch extends TreeScanBatch {
  readonly selected: readonly ReplayedEntry[];
  /** With `judges.index`: files vouched to hold no match before each selected entry (in walk order), the last after them all. */
  readonly nothing?: readonly number[];
}

interface Frame {
  readonly root: RootPath['root'];
  /** The directory's path in its root, with a trailing '/' ('' for the root itself); see childOf. */
  readonly prefix: string;
  readonly relativePath: string;
  readonly depth: number;
  readonly directory: SnapshotDirectory;
  next: number;
  /** Whether `options.directoryFiles.found` has been told of this directory's rule files. */
  entered: boolean;
}

/**
 * FileSystemPort.scanTree answered from a snapshot (`directory` is the snapshot's node for `start`):
 * the same entries judged in the same order, the same rule files found, the same batches' worth of
 * `scanned` (a stat without its createdAt: the snapshot keeps no birth times, which no search reads). An
 * entry the snapshot holds no stat of (ignored at build) is stat'ed when selected, and a
 * directory it did not enter is scanned live through the port: a replay only saves work, it never
 * guesses. No contents are read ahead (a caller opens each file it searches). With `judges`, verdicts
 * kept per entry stand for the call's own (see ReplayJudges): each is dropped when its entry is restamped.
 * With kept ignore verdicts, a directory's rule files go to `directoryFiles.found` only once something in
 * it is to be judged (an entry with no verdict kept, a live scan below it), its parents' first: a repeated
 * search judges nothing, so it hands over none.
 */
export async function* replayScan(
  fs: FileSystemPort,
  start: RootPath,
  snapshot: WalkSnapshot,
  directory: SnapshotDirectory,
  options: TreeScanOptions,
  judges: ReplayJudges = {},
): AsyncGenerator<ReplayBatch> {
  const rows = snapshot.rows;
  const { index, everyFile = false } = judges;
  const nameEnding = options.selectNameEnding;
  const ignore = judges.ignore && rows.ignoreVerdicts(judges.ignore.key);
  // Without kept verdicts every entry may be judged: each directory's rule files are handed over as it is entered.
  const eager = ignore === undefined;
  const startPrefix = start.segments.length === 0 ? '' : `${start.segments.join('/')}/`;
  const stack: Frame[] = [enter(start.root, startPrefix, '', 0, directory, options, eager)];
  // Without rules to keep verdicts of, an entry is kept when there is no prune to ask.
  const unjudged = options.prune === undefined ? IGNORE_KEPT : IGNORE_UNKNOWN;
  let selected: ReplayedEntry[] = [];
  let nothing: number[] | undefined = index && [0];
  let scanned = 0;
  // Taken anew at each batch: the index may change while the caller holds one.
  let indexSlots = index && rows.indexVerdicts(...index.epoch());
  /** The index's word on a file row (see IndexedLookup.vouch), kept per row while the index is unchanged. */
  const vouched = (row: number, frame: Frame, at: number): number => {
    const slot = indexSlots![row]!;
    if (slot !== INDEX_UNKNOWN) return slot;
    return (indexSlots![row] = index!.vouch(frame.prefix + frame.directory.name(at), rows.size(row), rows.modifiedMs(row), rows.inode(row)));
  };
  const flush = (): ReplayBatch => {
    const batch = { scanned, selected, nothing };
    selected = [];
    nothing = index && [0];
    scanned = 0;
    return batch;
  };
  while (stack.length > 0) {
    const frame = stack[stack.length - 1]!;
    if (frame.next >= frame.directory.size) {
      stack.pop();
      continue;
    }
    const at = frame.next++;
    const row = frame.directory.row(at);
    scanned += 1;
    const verdict = ignore === undefined ? unjudged : ignore[row]!;
    if (verdict === IGNORE_KEPT && indexSlots !== undefined && everyFile && rows.isFile(row)) {
      // The path the walk would judge is made only for a file the index cannot vouch holds nothing.
      const slot = vouched(row, frame, at);
      const name = slot >= 0 && index!.vouchedEmpty(slot) ? undefined : frame.directory.name(at);
      if (name === undefined) nothing![selected.length] += 1;
      else {
        const verdict = index!.verdictOf(slot, frame.prefix + name);
        if (verdict === 'search') {
          const relativePath = frame.relativePath === '' ? name : `${frame.relativePath}/${name}`;
          selected.push({ relativePath, stat: rows.stat(row, name), rootPath: frame.prefix + name, verdict });
          nothing!.push(0);
        }
      }
    } else if (verdict === IGNORE_KEPT && nameEnding !== undefined && !rows.isDirectory(row) && !frame.directory.nameEndsWith(at, nameEnding)) {
      // `select` would refuse it (options.selectNameEnding) and nothing else asks about it: no path is made.
    } else {
      const name = frame.directory.name(at);
      const kind = rows.kind(row);
      const relativePath = frame.relativePath === '' ? name : `${frame.relativePath}/${name}`;
      if (verdict === IGNORE_PRUNED) {
        judges.ignore!.passOver(relativePath);
        continue;
      }
      if (verdict === IGNORE_UNKNOWN) {
        enterAll(stack, options);
        const pruned = options.prune?.(relativePath, kind) ?? false;
        if (ignore !== undefined) ignore[row] = pruned ? IGNORE_PRUNED : IGNORE_KEPT;
        if (pruned) continue;
      }
      if (options.select(relativePath, kind, name)) {
        // The index's verdict is taken here too (kept for the next call): the caller counts what it vouches for.
        const verdict = indexSlots !== undefined && rows.isFile(row) ? index!.verdictOf(vouched(row, frame, at), frame.prefix + name) : undefined;
        if (verdict === 'no-match') nothing![selected.length] += 1;
        else if (verdict !== 'binary') {
          let stat: EntryStat | null = rows.hasStat(row) ? rows.stat(row, name) : null;
          if (stat === null) {
            stat = await fs.stat(childOf(frame, name), { followSymlinks: false });
            if (index !== undefined) indexSlots = rows.indexVerdicts(...index.epoch());
          }
          if (stat !== null) {
            selected.push({ relativePath, stat, rootPath: frame.prefix + name, verdict });
            nothing?.push(0);
          }
        }
      }
      if (kind === 'directory' && (options.maxDepth === undefined || frame.depth + 1 < options.maxDepth)) {
        const entered = snapshot.directoryOf(row);
        if (entered !== undefined) stack.push(enter(frame.root, `${frame.prefix}${name}/`, relativePath, frame.depth + 1, entered, options, eager));
        else {
          // Not in the snapshot: what a walk would find there is found by one.
          if (selected.length > 0 || scanned > 0) yield flush();
          enterAll(stack, options);
          yield* liveScan(fs, childOf(frame, name), relativePath, frame.depth + 1, options);
          if (index !== undefined) indexSlots = rows.indexVerdicts(...index.epoch());
        }
      }
    }
    if (scanned >= ENTRIES_PER_BATCH) {
      yield flush();
      if (index !== undefined) indexSlots = rows.indexVerdicts(...index.epoch());
    }
  }
  if (scanned > 0 || selected.length > 0) yield flush();
}

/**
 * The path of the entry `name` of the frame's directory, made only when a lookup needs it (a directory
 * entered keeps only its prefix string: 5,000 segment arrays a replay of 100k entries made for nothing).
 */
function childOf(frame: Frame, name: string): RootPath {
  return { root: frame.root, segments: frame.prefix === '' ? [name] : [...frame.prefix.slice(0, -1).split('/'), name] };
}

function enter(root: RootPath['root'], prefix: string, relativePath: string, depth: number, directory: SnapshotDirectory, options: TreeScanOptions, eager: boolean): Frame {
  const frame = { root, prefix, relativePath, depth, directory, next: 0, entered: false };
  if (eager) enterAll([frame], options);
  return frame;
}

/** Hands over the rule files of every directory on the stack not told of yet, outermost first. */
function enterAll(stack: readonly Frame[], options: TreeScanOptions): void {
  for (const frame of stack) {
    if (frame.entered) continue;
    frame.entered = true;
    options.directoryFiles?.found(frame.relativePath, frame.directory.files);
  }
}

/** A scan of the directory at `path` as part of a scan whose paths are relative to `prefix`'s start. */
async function* liveScan(fs: FileSystemPort, path: RootPath, prefix: string, depth: number, options: TreeScanOptions): AsyncGenerator<TreeScanBatch> {
  const below = (relativePath: string) => (relativePath === '' ? prefix : `${prefix}/${relativePath}`);
  const wanted = options.directoryFiles;
  const shifted: TreeScanOptions = {
    ...options,
    readContents: undefined,
    maxDepth: options.maxDepth === undefined ? undefined : options.maxDepth - depth,
    select: (relativePath, kind, name) => options.select(below(relativePath), kind, name),
    prune: options.prune && ((relativePath, kind) => options.prune!(below(relativePath), kind)),
    directoryFiles: wanted && { ...wanted, found: (relativePath, files) => wanted.found(below(relativePath), files) },
  };
  // Security: a scan's start follows in-root links; a walk never enters a link, so neither does this.
  if ((await fs.stat(path, { followSymlinks: false }))?.kind !== 'directory') return;
  try {
    for await (const batch of fs.scanTree(path, shifted)) {
      yield { scanned: batch.scanned, selected: batch.selected.map((entry) => ({ relativePath: below(entry.relativePath), stat: entry.stat })) };
    }
  } catch (error) {
    // Gone or no longer a directory since the snapshot was brought up to date: a walk skips it too.
    const code = (error as { code?: unknown } | null)?.code;
    if (code !== 'NOT_FOUND' && code !== 'NOT_A_DIRECTORY') throw error;
  }
}
