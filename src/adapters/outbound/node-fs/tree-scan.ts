import { closeSync, fstatSync, lstatSync, openSync, readdirSync, type Stats } from 'node:fs';
import { setImmediate as nextTurn } from 'node:timers/promises';
import { compareCodePoints } from '../../../domain/code-point-order.js';
import type { EntryKind, ScannedEntry, TreeScanBatch, TreeScanOptions } from '../../../domain/ports/file-system.port.js';
import { hostPathInside } from '../../../domain/path-policy.js';
import type { RootPath } from '../../../domain/roots.js';
import { readDirectoryFiles } from './directory-files.js';
import { readWhole } from './small-files.js';
import { kindOf, toEntryStat } from './entry-stat.js';
import type { ListedEntry, ListingPrefetch } from './listing-prefetch.js';
import { errnoOf, outsideRoot, translate } from './node-errors.js';
import { isOwnWorkFile } from '../../../domain/work-files.js';
import { COLD_READ_MS, ColdReads, type PoolRead } from './cold-reads.js';
import { Dir, DIRECTORY_FLAGS, FILE_READ_FLAGS, Walk, type Walker } from './walker.js';
import { childRelativePath, direntKind, kernelWorkingDirectory, LATER, newFrame, NONE, ReadWhenReported, type Frame } from './scan-frame.js';
import { WorkingDirectory } from './working-directory.js';

/** Entries between two looks at the clock inside a slice. */
const ENTRIES_PER_CLOCK = 128;
/** Directory fds one scan holds at most; deeper trees close their shallowest ones and reopen them through the walker. */
const MAX_OPEN_DIRECTORIES = 64;

/** Child directories one scan opens ahead at most, while their parent is the working directory. */
const EAGER_DIRECTORIES = 256;
/**
 * File contents one batch carries (TreeScanOptions.readContents): a batch ends once it holds this
 * much. The consumer (grep's regex) works through a batch in the same turn of the event loop as the
 * slice that read it, so this bounds how long a request arriving meanwhile waits: with 1 MiB a
 * read_file next to a 200 MB grep had a median of 2.8–3.3 ms and a p99 of 13–15 ms; with 128 KiB,
 * 1.5–1.9 ms and 8.4–9.6 ms, and the grep took no longer (64 KiB made both worse).
 */
const BATCH_CONTENT_BYTES = 128 * 1024;

/**
 * FileSystemPort.scanTree for the Node adapter: the whole walk runs with synchronous syscalls in
 * slices of `sliceMs` (between two, other requests and a cancellation get their turn), one
 * readdir (names and kinds, no stat) per directory and one lstat per selected entry only, with no
 * promise per entry or per directory. Each directory is the working directory once: its entries
 * are selected, stat'ed and its subdirectories opened in one visit.
 *
 * Security: the start is opened and verified by the walker like any other directory. Below it,
 * every directory is opened O_DIRECTORY|O_NOFOLLOW by a bare name in its parent while the parent
 * is the working directory, entered through the parent's checked descriptor (see
 * WorkingDirectory: the same lookup as `/proc/self/fd/N/name`), so a link (or an entry swapped
 * for one) is never entered: the open fails and the entry is skipped. Listings and lstats are
 * lookups in the directory that was opened, and each opened directory's kernel path is checked to
 * lie inside the root (a directory moved out while we held its parent is refused), as the walker
 * checks the directories it opens. The symlink-race test drives this walk.
 */
export async function* scanTree(
  walker: Walker,
  start: RootPath,
  options: TreeScanOptions,
  sliceMs: number,
  listings?: ListingPrefetch,
  coldReadMs = COLD_READ_MS,
): AsyncGenerator<TreeScanBatch> {
  const walk = new Walk(start);
  const { dir } = await walker.directory(start, walk);
  const scan = new Scan(walker, dir, walk, options, walker.procFd ? listings : undefined, coldReadMs);
  try {
    scan.begin();
    while (!scan.done) {
      const reopen = scan.reopenNeeded();
      if (reopen) await scan.reopen(reopen);
      yield scan.slice(sliceMs);
      await nextTurn();
      await scan.cold.awaitWaiting();
    }
  } finally {
    scan.close();
    // No read on the thread pool outlives the scan (each closes its own descriptor when it settles).
    await scan.cold.settled();
  }
}

class Scan {
  private readonly stack: Frame[] = [];
  private readonly base: RootPath;
  /** The directory being scanned is the working directory during a slice (procFd only). */
  private readonly place = new WorkingDirectory();
  /** Child directories opened ahead and not yet entered or closed. */
  private eager = 0;
  /** Whether the disk is cold, and the files read ahead on the thread pool while it is (readContents). */
  readonly cold: ColdReads;

  constructor(
    private readonly walker: Walker,
    start: Dir,
    private readonly walk: Walk,
    private readonly options: TreeScanOptions,
    /** Lists the children opened ahead on another thread (procFd only); see ListingPrefetch. */
    private readonly listings?: ListingPrefetch,
    coldReadMs = COLD_READ_MS,
  ) {
    this.cold = new ColdReads(coldReadMs);
    // The physical path of the start: links on the way to it are already substituted.
    this.base = start.path;
    this.stack.push(newFrame(start, this.prefixOf(start), '', 0));
  }

  /** Lists the start directory. */
  begin(): void {
    const frame = this.stack[0];
    try {
      this.changeInto(frame);
      frame.entries = this.list(frame);
      this.readRules(frame);
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
    if (top === undefined || top.dir !== null) return null;
    return top.prepared < top.entries.length || top.children[top.next] === LATER ? top : null;
  }

  async reopen(frame: Frame): Promise<void> {
    const path = this.pathOf(frame.relativePath);
    let dir: Dir;
    try {
      // The walker opens it afresh from the root (or a directory it verified), checking every hop.
      ({ dir } = await this.walker.directory(path, new Walk(path)));
    } catch (error) {
      const code = (error as { code?: unknown } | null)?.code;
      if (code !== 'NOT_FOUND' && code !== 'NOT_A_DIRECTORY') throw error;
      // Gone since it was listed: what is left of it is skipped, like any vanished directory.
      return this.skipRest(frame);
    }
    // Security: the walker follows in-root links on its way; a directory swapped meanwhile (for a link to
    // another directory, or another directory renamed into place) is not this one, and its names are
    // not looked up as if they were the ones listed: what is left of it is skipped, as if it vanished.
    const now = fstatSync(dir.fd);
    if (frame.identity !== undefined && (now.dev !== frame.identity.dev || now.ino !== frame.identity.ino)) {
      void dir.close();
      return this.skipRest(frame);
    }
    frame.dir = dir;
    frame.prefix = this.prefixOf(dir);
  }

  /** What is left of a directory that is gone (or not the one listed) is skipped, like any vanished directory. */
  private skipRest(frame: Frame): void {
    frame.entries.length = frame.prepared;
    for (let index = frame.next; index < frame.prepared; index += 1) if (frame.children[index] === LATER) frame.children[index] = NONE;
  }

  /** Walks on for at most `sliceMs` (or until a directory must be reopened, or a file read on the thread pool is not read yet). */
  slice(sliceMs: number): TreeScanBatch {
    const selected: ScannedEntry[] = [];
    const until = performance.now() + sliceMs;
    let scanned = 0;
    let steps = 0;
    let contentBytes = 0;
    // One allocation per batch for the contents of its files, not one per file (a 10 KB Buffer each is
    // memory outside the heap that the collector must track); a batch's files are views into it.
    let slab: Buffer | undefined;
    try {
      while (this.stack.length > 0) {
        if (++steps % ENTRIES_PER_CLOCK === 0 && performance.now() >= until) break;
        if (contentBytes >= BATCH_CONTENT_BYTES) break;
        const frame = this.stack[this.stack.length - 1];
        if (frame.prepared < frame.entries.length) {
          if (frame.dir === null) break;
          this.prepare(frame);
          scanned += 1;
          continue;
        }
        if (frame.next >= frame.entries.length) {
          this.stack.pop();
          void frame.dir?.close();
          continue;
        }
        const upcoming = frame.reports[frame.next];
        if (upcoming instanceof ReadWhenReported && upcoming.pool !== undefined && !upcoming.pool.done) {
          // The disk has not answered yet: the event loop serves others meanwhile.
          this.cold.waitFor(upcoming.pool);
          break;
        }
        let child = frame.children[frame.next];
        if (child === LATER) {
          if (frame.dir === null) break;
          this.changeInto(frame);
          child = this.openChild(frame, frame.next);
        } else if (child >= 0) {
          this.eager -= 1;
        }
        const index = frame.next++;
        const prepared = frame.reports[index];
        let report: ScannedEntry | undefined;
        if (prepared instanceof ReadWhenReported) {
          report = prepared.pool === undefined ? undefined : this.poolReadReport(frame.entries[index].name, prepared, prepared.pool);
          if (report === undefined && prepared.pool?.contents === undefined) {
            // Read as it is reported, not as it is prepared: a batch holds at most BATCH_CONTENT_BYTES of
            // contents, plus the one file that crosses it.
            slab ??= Buffer.allocUnsafeSlow(BATCH_CONTENT_BYTES + (this.options.readContents?.maxBytes ?? 0));
            report = this.readSelected(frame, frame.entries[index].name, prepared.relativePath, slab.subarray(contentBytes));
          }
          if (this.cold.cold) this.readAheadOnPool(frame, index);
        } else {
          report = prepared;
        }
        if (report !== undefined) {
          contentBytes += report.contents?.length ?? 0;
          selected.push(report);
        }
        if (child >= 0) this.enter(frame, frame.entries[index].name, child);
      }
    } finally {
      this.place.leave();
      // The helper lists the children opened in this slice while the event loop serves others.
      this.listings?.flush();
    }
    return { scanned, selected };
  }

  close(): void {
    for (const frame of this.stack) {
      void frame.dir?.close();
      for (let index = frame.next; index < frame.prepared; index += 1) if (frame.children[index] >= 0) this.closeUnentered(frame.children[index]);
    }
    this.stack.length = 0;
    this.eager = 0;
  }

  /** Selects, stats and (for a directory to enter) opens the next entry of `frame`, which becomes the working directory. */
  private prepare(frame: Frame): void {
    this.changeInto(frame);
    const index = frame.prepared++;
    const entry = frame.entries[index];
    const name = entry.name;
    const kind = entry.kind;
    const relativePath = frame.relativePath === '' ? name : `${frame.relativePath}/${name}`;
    if (this.options.prune?.(relativePath, kind)) {
      // Passed over entirely: not stat'ed, and a directory not opened.
      frame.reports.push(undefined);
      frame.children.push(NONE);
      return;
    }
    if (!this.options.select(relativePath, kind)) frame.reports.push(undefined);
    else if (kind === 'file' && this.options.readContents !== undefined) frame.reports.push(new ReadWhenReported(relativePath));
    else frame.reports.push(this.stat(frame, name, kind, relativePath));
    const { maxDepth } = this.options;
    if (kind !== 'directory' || (maxDepth !== undefined && frame.depth + 1 >= maxDepth)) frame.children.push(NONE);
    else if (this.eager >= EAGER_DIRECTORIES) frame.children.push(LATER);
    else {
      const fd = this.openChild(frame, index);
      if (fd >= 0) {
        this.eager += 1;
        this.listings?.request(fd);
      }
      frame.children.push(fd);
    }
  }

  private stat(frame: Frame, name: string, kind: EntryKind, relativePath: string): ScannedEntry | undefined {
    let stats;
    try {
      stats = lstatSync(frame.prefix + name, { throwIfNoEntry: false });
    } catch (error) {
      throw translate(error, this.pathOf(relativePath));
    }
    // Gone since the listing: nothing to report.
    if (stats === undefined) return undefined;
    return this.reportOf(name, kind, relativePath, stats);
  }

  /** The entry as `stats` show it now, if it is still wanted (its kind may have changed since the listing). */
  private reportOf(name: string, listedKind: EntryKind, relativePath: string, stats: Stats): ScannedEntry | undefined {
    const now = kindOf(stats);
    if (now !== listedKind && !this.options.select(relativePath, now)) return undefined;
    return { relativePath, stat: toEntryStat(name, stats) };
  }

  /**
   * A file selected with readContents, as it is reported: opened, fstat'ed (its stat, no lstat) and,
   * when it is a regular file of at most maxBytes, read whole into `room` (or its own buffer). An
   * entry that cannot be opened that way is judged by lstat like any other and comes without bytes
   * (the caller opens it and meets whatever error there is to meet).
   *
   * Security: opened O_NOFOLLOW by its bare name while its directory is the working directory (the
   * same lookup as `/proc/self/fd/N/name`, see WorkingDirectory), so an entry swapped for a link is
   * not opened; O_NONBLOCK and the fstat check keep a FIFO or device from being read or waited on.
   */
  private readSelected(frame: Frame, name: string, relativePath: string, room: Buffer): ScannedEntry | undefined {
    const maxBytes = this.options.readContents?.maxBytes ?? 0;
    // Security: a bare name means "in the working directory", which is this directory only while its fd is
    // held (closeShallowest judges such files before giving a directory back).
    if (frame.dir === null) throw new Error('scan: a file to read in a directory no longer held');
    this.changeInto(frame);
    let fd: number;
    try {
      fd = openSync(frame.prefix + name, FILE_READ_FLAGS);
    } catch {
      return this.stat(frame, name, 'file', relativePath);
    }
    try {
      const stats = fstatSync(fd);
      const report = this.reportOf(name, 'file', relativePath, stats);
      if (report === undefined || !stats.isFile() || stats.size > maxBytes) return report;
      const contents = stats.size <= room.length ? room.subarray(0, stats.size) : Buffer.allocUnsafe(stats.size);
      const started = performance.now();
      const filled = readWhole(fd, contents);
      this.cold.timed(performance.now() - started, filled);
      return { relativePath, stat: report.stat, contents: contents.subarray(0, filled) };
    } catch {
      return this.stat(frame, name, 'file', relativePath);
    } finally {
      closeSync(fd);
    }
  }

  /**
   * Opens the files after entry `index` of `frame` (being reported) to read them on the thread pool
   * (see ColdReads), not past a subdirectory to walk: its subtree is reported first, and files read
   * that early would be held all through it.
   *
   * Security: each file is opened by its bare name while this directory is the working directory, as
   * readSelected opens it (see ColdReads.open).
   */
  private readAheadOnPool(frame: Frame, index: number): void {
    if (frame.dir === null) return;
    const maxBytes = this.options.readContents?.maxBytes ?? 0;
    frame.readAhead = Math.max(frame.readAhead, index + 1);
    while (frame.readAhead < frame.prepared && this.cold.wantsMore) {
      const at = frame.readAhead;
      if (frame.children[at] !== NONE) return;
      frame.readAhead += 1;
      const pending = frame.reports[at];
      if (!(pending instanceof ReadWhenReported) || pending.pool !== undefined) continue;
      this.changeInto(frame);
      pending.pool = this.cold.open(frame.prefix + frame.entries[at].name, maxBytes);
    }
  }

  /** The file as its read on the thread pool left it; undefined when that read failed (the scan reads it itself) or the file is no longer wanted. */
  private poolReadReport(name: string, file: ReadWhenReported, read: PoolRead): ScannedEntry | undefined {
    this.cold.taken(read);
    if (read.contents === undefined) return undefined;
    const report = this.reportOf(name, 'file', file.relativePath, read.stats);
    return report === undefined ? undefined : { relativePath: file.relativePath, stat: report.stat, contents: read.contents };
  }

  /** Opens entry `index` of `frame` (the working directory) as a directory, never through a link; NONE when it is not one (any more). */
  private openChild(frame: Frame, index: number): number {
    const name = frame.entries[index].name;
    try {
      return openSync(frame.prefix + name, DIRECTORY_FLAGS);
    } catch (error) {
      const code = errnoOf(error);
      // Security: ELOOP/ENOTDIR is an entry swapped for a link or a file since the listing: never entered.
      if (code === 'ENOENT' || code === 'ELOOP' || code === 'ENOTDIR') return NONE;
      throw translate(error, this.pathOf(childRelativePath(frame, name)), 'directory');
    }
  }

  private enter(parent: Frame, name: string, fd: number): void {
    const relativePath = childRelativePath(parent, name);
    const dir = new Dir(fd, this.pathOf(relativePath), this.walker.procFd);
    const child = newFrame(dir, this.prefixOf(dir), relativePath, parent.depth + 1);
    try {
      this.changeInto(child);
      this.verify(child, dir);
      child.entries = this.list(child);
      this.readRules(child);
    } catch (error) {
      this.listings?.abandon(fd);
      void dir.close();
      throw error;
    }
    this.stack.push(child);
    this.closeShallowest();
  }

  /**
   * Security: defense in depth, as Walker.verify: the kernel's own name for the directory must lie
   * inside the root. It is the working directory now, so getcwd names it without a /proc lookup;
   * the walker's check (which also handles paths past PATH_MAX) when that cannot answer.
   */
  private verify(frame: Frame, dir: Dir): void {
    const here = this.walker.procFd ? kernelWorkingDirectory() : null;
    if (here === null) return this.walker.verifySync(dir, this.base.root, this.walk);
    if (hostPathInside(this.base.root.hostPath, here) === null) throw outsideRoot(this.pathOf(frame.relativePath), here);
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

  /**
   * Keeps at most MAX_OPEN_DIRECTORIES fds on the stack: a deep tree gives back its shallowest ones
   * (never the start's). They are fully prepared, so only a child left for LATER needs one reopened.
   */
  private closeShallowest(): void {
    const excess = this.stack.length - MAX_OPEN_DIRECTORIES;
    if (excess <= 0) return;
    const frame = this.stack[excess];
    if (frame.dir === null) return;
    // Files still to be read when reported need their directory: judge them now, by lstat, without bytes.
    this.changeInto(frame);
    for (let index = frame.next; index < frame.prepared; index += 1) {
      const pending = frame.reports[index];
      if (pending instanceof ReadWhenReported) frame.reports[index] = this.stat(frame, frame.entries[index].name, 'file', pending.relativePath);
    }
    const { dev, ino } = fstatSync(frame.dir.fd);
    frame.identity = { dev, ino };
    void frame.dir.close();
    frame.dir = null;
  }

  /** TreeScanOptions.directoryFiles of the directory just listed, which is the working directory (see readDirectoryFiles). */
  private readRules(frame: Frame): void {
    const wanted = this.options.directoryFiles;
    if (wanted !== undefined) wanted.found(frame.relativePath, readDirectoryFiles(frame.prefix, frame.entries, wanted));
  }

  private list(frame: Frame): ListedEntry[] {
    const fetched = frame.dir === null ? undefined : this.listings?.take(frame.dir.fd);
    let entries: ListedEntry[];
    if (fetched !== undefined) entries = fetched;
    else {
      try {
        entries = readdirSync(frame.prefix === '' ? '.' : frame.prefix, { withFileTypes: true }).map((entry) => ({ name: entry.name, kind: direntKind(entry) }));
      } catch (error) {
        throw translate(error, this.pathOf(frame.relativePath), 'directory');
      }
    }
    // A temp file of a write in progress (or a lock) is an implementation detail, not an entry (unless asked for).
    const shown = this.options.includeWorkNames ? entries : entries.filter((entry) => !isOwnWorkFile(entry.name));
    return shown.sort((a, b) => compareCodePoints(a.name, b.name));
  }

  /** A child directory opened ahead and never entered: its listing, if asked for, is no longer wanted. */
  private closeUnentered(fd: number): void {
    this.listings?.abandon(fd);
    closeSync(fd);
  }

  private pathOf(relativePath: string): RootPath {
    return relativePath === '' ? this.base : { root: this.base.root, segments: [...this.base.segments, ...relativePath.split('/')] };
  }
}
