import { compareCodePoints } from '../code-point-order.js';
import type { DirectoryFile, EntryKind, EntryStat, FileSystemPort, ScannedEntry, TreeScanBatch, TreeScanOptions } from '../ports/file-system.port.js';
import type { RootPath } from '../roots.js';

/** One entry of a snapshot directory, as the walk's listing gave it. */
export interface SnapshotEntry {
  readonly name: string;
  kind: EntryKind;
  /** Absent for an entry the build's ignore rules passed over (never stat'ed). */
  stat?: EntryStat;
  /** Its entries when the build entered it; absent: not entered (ignored, or new since), so a replay scans it live. */
  directory?: SnapshotDirectory;
  /** Its root-relative path, made once by the first replay that reports it. */
  path?: string;
}

export interface SnapshotDirectory {
  /** In code point order, as a walk lists them; the adapters' own work files are left out, as a scan does. */
  readonly entries: SnapshotEntry[];
  /** The rule files (DirectoryFiles) a walk read on entering it. */
  readonly files: readonly DirectoryFile[];
}

/** Entries a replay reports in one batch at most: the caller looks at its limits between batches. */
const ENTRIES_PER_BATCH = 1024;

/**
 * Issue 31.2: a root's tree as one full walk saw it (every directory it entered with its entries in
 * walk order, their stats and the rule files read there), so that a repeated grep or glob need not
 * walk again. It is exact only with every change since applied (see applyTreeChanges): the tree
 * watch tells which paths those are.
 */
export class WalkSnapshot {
  private constructor(
    readonly top: SnapshotDirectory,
    /** Entries the walk listed, as it built the snapshot (for the threshold below which a walk is as fast). */
    readonly size: number,
  ) {}

  /** Every directory entered, root-relative ('' the root), parents first. */
  directories(): string[] {
    const found: string[] = [];
    const visit = (path: string, directory: SnapshotDirectory) => {
      found.push(path);
      for (const entry of directory.entries) if (entry.directory) visit(path === '' ? entry.name : `${path}/${entry.name}`, entry.directory);
    };
    visit('', this.top);
    return found;
  }

  /** The entry at a root-relative path through entered directories, with the directory holding it. */
  entryAt(segments: readonly string[]): { parent: SnapshotDirectory; entry?: SnapshotEntry } | undefined {
    let parent = this.top;
    for (let k = 0; k < segments.length - 1; k += 1) {
      const next = findEntry(parent, segments[k]!)?.directory;
      if (next === undefined) return undefined;
      parent = next;
    }
    return { parent, entry: segments.length === 0 ? undefined : findEntry(parent, segments[segments.length - 1]!) };
  }

  /** The entered directory at `segments` ([] the root), if the snapshot holds it. */
  directoryAt(segments: readonly string[]): SnapshotDirectory | undefined {
    return segments.length === 0 ? this.top : this.entryAt(segments)?.entry?.directory;
  }

  /**
   * One full walk of `top` as a scan with these rules walks it (prune, directoryFiles), every entry
   * selected so that each is stat'ed; the entries the rules pass over are kept by name and kind.
   */
  static async build(
    fs: FileSystemPort,
    top: RootPath,
    rules: Pick<TreeScanOptions, 'prune' | 'directoryFiles'>,
    between?: () => Promise<void>,
    maxEntries = Infinity,
  ): Promise<WalkSnapshot | undefined> {
    const directories = new Map<string, SnapshotDirectory>();
    const directoryOf = (path: string) => {
      let found = directories.get(path);
      if (found === undefined) directories.set(path, (found = { entries: [], files: [] }));
      return found;
    };
    const wanted = rules.directoryFiles;
    const options: TreeScanOptions = {
      select: () => true,
      prune: (path, kind) => {
        const pruned = rules.prune?.(path, kind) ?? false;
        if (pruned) directoryOf(parentOf(path)).entries.push({ name: nameOf(path), kind });
        return pruned;
      },
      directoryFiles:
        wanted === undefined
          ? undefined
          : { ...wanted, found: (path, files) => (wanted.found(path, files), Object.assign(directoryOf(path), { files })) },
    };
    directoryOf('');
    let size = 0;
    for await (const batch of fs.scanTree(top, options)) {
      size += batch.scanned;
      // Bounded: past maxEntries the walk stops and the root keeps no snapshot.
      if (size > maxEntries) return undefined;
      for (const entry of batch.selected) {
        const kept: SnapshotEntry = { name: nameOf(entry.relativePath), kind: entry.stat.kind, stat: entry.stat };
        if (entry.stat.kind === 'directory') kept.directory = directoryOf(entry.relativePath);
        directoryOf(parentOf(entry.relativePath)).entries.push(kept);
      }
      await between?.();
    }
    for (const directory of directories.values()) directory.entries.sort((a, b) => compareCodePoints(a.name, b.name));
    return new WalkSnapshot(directoryOf(''), size);
  }
}

export function findEntry(directory: SnapshotDirectory, name: string): SnapshotEntry | undefined {
  let low = 0;
  let high = directory.entries.length - 1;
  while (low <= high) {
    const middle = (low + high) >> 1;
    const order = compareCodePoints(directory.entries[middle]!.name, name);
    if (order === 0) return directory.entries[middle];
    if (order < 0) low = middle + 1;
    else high = middle - 1;
  }
  return undefined;
}

function parentOf(path: string): string {
  const slash = path.lastIndexOf('/');
  return slash < 0 ? '' : path.slice(0, slash);
}

function nameOf(path: string): string {
  return path.slice(path.lastIndexOf('/') + 1);
}

interface Frame {
  readonly path: RootPath;
  /** `path` joined, with a trailing '/' ('' for the root). */
  readonly prefix: string;
  readonly relativePath: string;
  readonly depth: number;
  readonly directory: SnapshotDirectory;
  next: number;
}

/**
 * FileSystemPort.scanTree answered from a snapshot (`directory` is the snapshot's node for `start`):
 * the same entries judged in the same order, the same rule files found, the same batches' worth of
 * `scanned`. An entry the snapshot holds no stat of (ignored at build) is stat'ed when selected, and a
 * directory it did not enter is scanned live through the port: a replay only saves work, it never
 * guesses. No contents are read ahead (a caller opens each file it searches).
 */
export async function* replayScan(fs: FileSystemPort, start: RootPath, directory: SnapshotDirectory, options: TreeScanOptions): AsyncGenerator<TreeScanBatch> {
  const stack: Frame[] = [enter(start, '', 0, directory, options)];
  let selected: ScannedEntry[] = [];
  let scanned = 0;
  while (stack.length > 0) {
    const frame = stack[stack.length - 1]!;
    if (frame.next >= frame.directory.entries.length) {
      stack.pop();
      continue;
    }
    const entry = frame.directory.entries[frame.next++]!;
    scanned += 1;
    const relativePath = frame.relativePath === '' ? entry.name : `${frame.relativePath}/${entry.name}`;
    if (options.prune?.(relativePath, entry.kind)) continue;
    const path: RootPath = { root: start.root, segments: [...frame.path.segments, entry.name] };
    if (options.select(relativePath, entry.kind)) {
      const stat = entry.stat ?? (await fs.stat(path, { followSymlinks: false }));
      if (stat !== null) selected.push({ relativePath, stat, rootPath: (entry.path ??= frame.prefix + entry.name) });
    }
    if (entry.kind === 'directory' && (options.maxDepth === undefined || frame.depth + 1 < options.maxDepth)) {
      if (entry.directory !== undefined) stack.push(enter(path, relativePath, frame.depth + 1, entry.directory, options));
      else {
        // Not in the snapshot: what a walk would find there is found by one.
        if (selected.length > 0 || scanned > 0) yield { scanned, selected };
        selected = [];
        scanned = 0;
        yield* liveScan(fs, path, relativePath, frame.depth + 1, options);
      }
    }
    if (scanned >= ENTRIES_PER_BATCH) {
      yield { scanned, selected };
      selected = [];
      scanned = 0;
    }
  }
  if (scanned > 0 || selected.length > 0) yield { scanned, selected };
}

function enter(path: RootPath, relativePath: string, depth: number, directory: SnapshotDirectory, options: TreeScanOptions): Frame {
  options.directoryFiles?.found(relativePath, directory.files);
  return { path, prefix: path.segments.length === 0 ? '' : `${path.segments.join('/')}/`, relativePath, depth, directory, next: 0 };
}

/** A scan of the directory at `path` as part of a scan whose paths are relative to `prefix`'s start. */
async function* liveScan(fs: FileSystemPort, path: RootPath, prefix: string, depth: number, options: TreeScanOptions): AsyncGenerator<TreeScanBatch> {
  const below = (relativePath: string) => (relativePath === '' ? prefix : `${prefix}/${relativePath}`);
  const wanted = options.directoryFiles;
  const shifted: TreeScanOptions = {
    ...options,
    readContents: undefined,
    maxDepth: options.maxDepth === undefined ? undefined : options.maxDepth - depth,
    select: (relativePath, kind) => options.select(below(relativePath), kind),
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
