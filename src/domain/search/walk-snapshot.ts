import type { FileSystemPort } from '../ports/file-system.port.js';
import type { TreeScanOptions } from '../ports/tree-scan-types.js';
import type { RootPath } from '../roots.js';
import { SnapshotDirectory } from './snapshot-directory.js';
import { IGNORE_KEPT, IGNORE_PRUNED, SnapshotRows } from './snapshot-rows.js';

export { SnapshotDirectory } from './snapshot-directory.js';

/** An entry of a snapshot directory: the directory and the entry's place in it. */
export interface HeldEntry {
  readonly parent: SnapshotDirectory;
  /** Its index in `parent`, -1 when `parent` holds no such name. */
  readonly index: number;
}

/**
 * Issue 31.2: a root's tree as one full walk saw it (every directory it entered with its entries in
 * walk order, their stats and the rule files read there), so that a repeated grep or glob need not
 * walk again. It is exact only with every change since applied (see applyTreeChanges): the tree
 * watch tells which paths those are. Entries are rows of typed arrays (SnapshotRows) and names in one
 * string per directory: some 60 bytes an entry, where an object per entry took about 300.
 */
export class WalkSnapshot {
  private constructor(
    readonly top: SnapshotDirectory,
    readonly rows: SnapshotRows,
    /** The directories the walk entered, by the row of their entry. */
    private readonly entered: Map<number, SnapshotDirectory>,
    /** Entries the walk listed, as it built the snapshot (for the threshold below which a walk is as fast). */
    readonly size: number,
  ) {}

  /** The entered directory of an entry's row, if the snapshot holds one. */
  directoryOf(row: number): SnapshotDirectory | undefined {
    return this.entered.get(row);
  }

  /** Enters `directory` at `row`, or forgets what it held there (undefined): scanned live until a rebuild. */
  setDirectory(row: number, directory: SnapshotDirectory | undefined): void {
    if (directory === undefined) this.entered.delete(row);
    else this.entered.set(row, directory);
  }

  /** Every directory entered, root-relative ('' the root), parents first. */
  directories(): string[] {
    const found: string[] = [];
    const visit = (path: string, directory: SnapshotDirectory) => {
      found.push(path);
      for (let index = 0; index < directory.size; index += 1) {
        const below = this.entered.get(directory.row(index));
        if (below !== undefined) visit(path === '' ? directory.name(index) : `${path}/${directory.name(index)}`, below);
      }
    };
    visit('', this.top);
    return found;
  }

  /** The entry at a root-relative path through entered directories, with the directory holding it. */
  entryAt(segments: readonly string[]): HeldEntry | undefined {
    let parent = this.top;
    for (let k = 0; k < segments.length - 1; k += 1) {
      const index = parent.find(segments[k]!);
      const next = index < 0 ? undefined : this.entered.get(parent.row(index));
      if (next === undefined) return undefined;
      parent = next;
    }
    return { parent, index: segments.length === 0 ? -1 : parent.find(segments[segments.length - 1]!) };
  }

  /** The entered directory at `segments` ([] the root), if the snapshot holds it. */
  directoryAt(segments: readonly string[]): SnapshotDirectory | undefined {
    if (segments.length === 0) return this.top;
    const held = this.entryAt(segments);
    return held === undefined || held.index < 0 ? undefined : this.entered.get(held.parent.row(held.index));
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
    /** The key (see SnapshotRows.ignoreVerdicts) of `rules`' prune for a call from `top`: its verdicts are kept for such calls. */
    rulesKey?: readonly unknown[],
  ): Promise<WalkSnapshot | undefined> {
    const rows = new SnapshotRows();
    const entered = new Map<number, SnapshotDirectory>();
    const directories = new Map<string, SnapshotDirectory>();
    const directoryOf = (path: string) => {
      let found = directories.get(path);
      if (found === undefined) directories.set(path, (found = new SnapshotDirectory()));
      return found;
    };
    let full = false;
    const passedOver: number[] = [];
    const wanted = rules.directoryFiles;
    const options: TreeScanOptions = {
      select: () => true,
      prune: (path, kind) => {
        const pruned = rules.prune?.(path, kind) ?? false;
        const row = pruned ? rows.add(kind) : 0;
        if (row === undefined) full = true;
        else if (pruned) {
          directoryOf(parentOf(path)).add(nameOf(path), row);
          passedOver.push(row);
        }
        return pruned;
      },
      directoryFiles:
        wanted === undefined
          ? undefined
          : { ...wanted, found: (path, files) => (wanted.found(path, files), (directoryOf(path).files = files)) },
    };
    directoryOf('');
    // The directories being filled, the root first: a walk reports depth first, so a directory is
    // complete (and packed, its build arrays let go) once an entry outside it is reported.
    const open: string[] = [''];
    const filling = (parent: string) => {
      while (!within(open[open.length - 1]!, parent)) directoryOf(open.pop()!).seal();
      if (open[open.length - 1] !== parent) open.push(parent);
      return directoryOf(parent);
    };
    let size = 0;
    for await (const batch of fs.scanTree(top, options)) {
      size += batch.scanned;
      for (const entry of batch.selected) {
        const row = rows.add(entry.stat.kind, entry.stat);
        if (row === undefined) full = true;
        else {
          if (entry.stat.kind === 'directory') entered.set(row, directoryOf(entry.relativePath));
          filling(parentOf(entry.relativePath)).add(nameOf(entry.relativePath), row);
        }
      }
      // Bounded: past maxEntries (or owners it can tell apart) the walk stops and the root keeps no snapshot.
      if (size > maxEntries || full) return undefined;
      await between?.();
    }
    for (const directory of directories.values()) directory.seal();
    rows.trim();
    if (rulesKey !== undefined) {
      // Every entry was judged by the rules as the walk went: those it did not pass over were kept.
      const verdicts = rows.ignoreVerdicts(rulesKey);
      verdicts.fill(IGNORE_KEPT, 0, rows.length);
      for (const row of passedOver) verdicts[row] = IGNORE_PRUNED;
    }
    return new WalkSnapshot(directoryOf(''), rows, entered, size);
  }
}

/** Whether `path` is `directory` or below it ('' the root). */
function within(directory: string, path: string): boolean {
  return directory === '' || path === directory || path.startsWith(`${directory}/`);
}

function parentOf(path: string): string {
  const slash = path.lastIndexOf('/');
  return slash < 0 ? '' : path.slice(0, slash);
}

function nameOf(path: string): string {
  return path.slice(path.lastIndexOf('/') + 1);
}
