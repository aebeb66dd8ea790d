import { lstatSync, openSync, readdirSync, type Dirent } from 'node:fs';
import { setImmediate as nextTurn } from 'node:timers/promises';
import { compareCodePoints } from '../../../domain/code-point-order.js';
import type { EntryKind, ScannedEntry, TreeScanBatch, TreeScanOptions } from '../../../domain/ports/file-system.port.js';
import type { RootPath } from '../../../domain/roots.js';
import { kindOf, toEntryStat } from './entry-stat.js';
import { errnoOf, translate } from './node-errors.js';
import { isOwnWorkFile } from './own-work-files.js';
import { Dir, DIRECTORY_FLAGS, Walk, type Walker } from './walker.js';
import { WorkingDirectory } from './working-directory.js';

/** Synchronous work between two looks at the event loop: other calls and a cancellation wait at most this long. */
const SLICE_MS = 8;
/** Entries between two looks at the clock inside a slice. */
const ENTRIES_PER_CLOCK = 128;
/** Directory fds one scan holds at most; deeper trees close their shallowest ones and reopen them through the walker. */
const MAX_OPEN_DIRECTORIES = 64;

interface Frame {
  /** The open directory, or null when it was closed to stay under MAX_OPEN_DIRECTORIES. */
  dir: Dir | null;
  /** Put before a name to look it up in this directory: '' once it is the working directory, its host path + '/' without /proc. */
  prefix: string;
  /** '' for the start directory. */
  readonly relativePath: string;
  readonly depth: number;
  entries: Dirent[];
  next: number;
}

/**
 * FileSystemPort.scanTree for the Node adapter: the whole walk runs with synchronous syscalls in
 * slices of SLICE_MS, one readdir (names and kinds, no stat) per directory and one lstat per
 * selected entry only, with no promise per entry or per directory.
 *
 * Security: the start is opened and verified by the walker like any other directory. Below it,
 * every directory is opened O_DIRECTORY|O_NOFOLLOW by a bare name in its parent, which is then the
 * working directory entered through the parent's descriptor (see WorkingDirectory: the same lookup
 * as `/proc/self/fd/N/name`), so a link (or an entry swapped for one) is never entered: the open
 * fails and the entry is skipped. Listings and lstats are lookups in the directory that was
 * opened, and each opened directory's kernel path is checked to lie inside the root (a directory
 * moved out while we held its parent is refused), as the walker checks the directories it opens.
 * The symlink-race test drives this walk.
 */
export async function* scanTree(walker: Walker, start: RootPath, options: TreeScanOptions): AsyncGenerator<TreeScanBatch> {
  const walk = new Walk(start);
  const { dir } = await walker.directory(start, walk);
  const scan = new Scan(walker, dir, walk, options);
  try {
    scan.begin();
    while (!scan.done) {
      const reopen = scan.reopenNeeded();
      if (reopen) await scan.reopen(reopen);
      yield scan.slice();
      await nextTurn();
    }
  } finally {
    scan.close();
  }
}

class Scan {
  private readonly stack: Frame[] = [];
  private readonly base: RootPath;
  /** The directory being scanned is the working directory during a slice (procFd only). */
  private readonly place = new WorkingDirectory();

  constructor(
    private readonly walker: Walker,
    start: Dir,
    private readonly walk: Walk,
    private readonly options: TreeScanOptions,
  ) {
    // The physical path of the start: links on the way to it are already substituted.
    this.base = start.path;
    this.stack.push({ dir: start, prefix: this.prefixOf(start), relativePath: '', depth: 0, entries: [], next: 0 });
  }

  /** Lists the start directory. */
  begin(): void {
    const frame = this.stack[0];
    try {
      this.changeInto(frame);
      frame.entries = this.list(frame);
    } finally {
      this.place.leave();
    }
  }

  get done(): boolean {
    return this.stack.length === 0;
  }

  /** The top frame when its directory must be opened again before the scan can go on. */
  reopenNeeded(): Frame | null {
    const top = this.stack[this.stack.length - 1];
    return top !== undefined && top.dir === null ? top : null;
  }

  async reopen(frame: Frame): Promise<void> {
    const path = this.pathOf(frame.relativePath);
    // The walker opens it afresh from the root (or a directory it verified), checking every hop.
    const { dir } = await this.walker.directory(path, new Walk(path));
    frame.dir = dir;
    frame.prefix = this.prefixOf(dir);
  }

  /** Walks on for at most SLICE_MS (or until the top directory must be reopened). */
  slice(): TreeScanBatch {
    const selected: ScannedEntry[] = [];
    const { select, maxDepth } = this.options;
    const until = performance.now() + SLICE_MS;
    let scanned = 0;
    try {
      while (this.stack.length > 0) {
        const frame = this.stack[this.stack.length - 1];
        if (frame.next >= frame.entries.length) {
          this.stack.pop();
          void frame.dir?.close();
          continue;
        }
        if (frame.dir === null) break;
        if (++scanned % ENTRIES_PER_CLOCK === 0 && performance.now() >= until) break;
        this.changeInto(frame);
        const entry = frame.entries[frame.next++];
        const name = entry.name;
        const kind = direntKind(entry);
        const relativePath = frame.relativePath === '' ? name : `${frame.relativePath}/${name}`;
        if (select(relativePath, kind)) this.stat(frame, name, kind, relativePath, selected);
        if (kind === 'directory' && (maxDepth === undefined || frame.depth + 1 < maxDepth)) this.enter(frame, name, relativePath);
      }
    } finally {
      this.place.leave();
    }
    return { scanned, selected };
  }

  close(): void {
    for (const frame of this.stack) void frame.dir?.close();
    this.stack.length = 0;
  }

  private stat(frame: Frame, name: string, kind: EntryKind, relativePath: string, selected: ScannedEntry[]): void {
    let stats;
    try {
      stats = lstatSync(frame.prefix + name, { throwIfNoEntry: false });
    } catch (error) {
      throw translate(error, this.pathOf(relativePath));
    }
    // Gone since the listing: nothing to report.
    if (stats === undefined) return;
    const now = kindOf(stats);
    if (now !== kind && !this.options.select(relativePath, now)) return;
    selected.push({ relativePath, stat: toEntryStat(name, stats) });
  }

  private enter(parent: Frame, name: string, relativePath: string): void {
    let fd: number;
    try {
      fd = openSync(parent.prefix + name, DIRECTORY_FLAGS);
    } catch (error) {
      const code = errnoOf(error);
      // Security: ELOOP/ENOTDIR is an entry swapped for a link or a file since the listing: never entered.
      if (code === 'ENOENT' || code === 'ELOOP' || code === 'ENOTDIR') return;
      throw translate(error, this.pathOf(relativePath), 'directory');
    }
    const dir = new Dir(fd, this.pathOf(relativePath), this.walker.procFd);
    const child: Frame = { dir, prefix: this.prefixOf(dir), relativePath, depth: parent.depth + 1, entries: [], next: 0 };
    try {
      this.walker.verifySync(dir, this.base.root, this.walk);
      this.changeInto(child);
      child.entries = this.list(child);
    } catch (error) {
      void dir.close();
      throw error;
    }
    this.stack.push(child);
    this.closeShallowest();
  }

  /** See WorkingDirectory: lookups in the directory being scanned are of bare names (procFd only). */
  private changeInto(frame: Frame): void {
    if (!this.walker.procFd || frame.dir === null) return;
    try {
      this.place.enter(frame, frame.dir.fd);
    } catch (error) {
      throw translate(error, this.pathOf(frame.relativePath), 'directory');
    }
  }

  private prefixOf(dir: Dir): string {
    return this.walker.procFd ? '' : `${dir.self}/`;
  }

  /** Keeps at most MAX_OPEN_DIRECTORIES fds: a deep tree gives back its shallowest ones (never the start's). */
  private closeShallowest(): void {
    const excess = this.stack.length - MAX_OPEN_DIRECTORIES;
    if (excess <= 0) return;
    const frame = this.stack[excess];
    if (frame.dir === null) return;
    void frame.dir.close();
    frame.dir = null;
  }

  private list(frame: Frame): Dirent[] {
    let entries: Dirent[];
    try {
      entries = readdirSync(frame.prefix === '' ? '.' : frame.prefix, { withFileTypes: true });
    } catch (error) {
      throw translate(error, this.pathOf(frame.relativePath), 'directory');
    }
    // A temp file of a write in progress (or a lock) is an implementation detail, not an entry.
    return entries.filter((entry) => !isOwnWorkFile(entry.name)).sort((a, b) => compareCodePoints(a.name, b.name));
  }

  private pathOf(relativePath: string): RootPath {
    return relativePath === '' ? this.base : { root: this.base.root, segments: [...this.base.segments, ...relativePath.split('/')] };
  }
}

function direntKind(entry: Dirent): EntryKind {
  if (entry.isFile()) return 'file';
  if (entry.isDirectory()) return 'directory';
  if (entry.isSymbolicLink()) return 'symlink';
  return 'other';
}
