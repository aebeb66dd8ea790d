import { closeSync, fstatSync, lstatSync, openSync, type Stats } from 'node:fs';
import { setImmediate as nextTurn } from 'node:timers/promises';
import type { EntryKind } from '../../../domain/ports/file-system.port.js';
import type { ScannedEntry, TreeScanBatch, TreeScanOptions } from '../../../domain/ports/tree-scan-types.js';
import type { RootPath } from '../../../domain/roots.js';
import { COLD_READ_MS, ColdReads, type PoolRead } from './cold-reads.js';
import { kindOf, toEntryStat } from './entry-stat.js';
import type { ListingPrefetch } from './listing-prefetch.js';
import { translate } from './node-errors.js';
import { ScanDirectories } from './scan-directories.js';
import { LATER, NONE, ReadWhenReported, type Frame } from './scan-frame.js';
import { readWhole } from './small-files.js';
import { type Dir, FILE_READ_FLAGS, Walk, type Walker } from './walker.js';

/** Entries between two looks at the clock inside a slice. */
const ENTRIES_PER_CLOCK = 128;

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
 * for one) is never entered: the open fails and the entry is skipped (ScanDirectories). Listings
 * and lstats are lookups in the directory that was opened, and each opened directory's kernel path
 * is checked to lie inside the root (a directory moved out while we held its parent is refused), as
 * the walker checks the directories it opens. The symlink-race test drives this walk.
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
    scan.dirs.begin();
    while (!scan.dirs.done) {
      const reopen = scan.dirs.reopenNeeded();
      if (reopen) await scan.dirs.reopen(reopen);
      yield scan.slice(sliceMs);
      await nextTurn();
      await scan.cold.awaitWaiting();
    }
  } finally {
    scan.dirs.close();
    // No read on the thread pool outlives the scan (each closes its own descriptor when it settles).
    await scan.cold.settled();
  }
}

/** What a scan reports of the entries of the directories it walks (ScanDirectories): selected, stat'ed, read. */
class Scan {
  readonly dirs: ScanDirectories;
  /** Whether the disk is cold, and the files read ahead on the thread pool while it is (readContents). */
  readonly cold: ColdReads;

  constructor(walker: Walker, start: Dir, walk: Walk, private readonly options: TreeScanOptions, listings?: ListingPrefetch, coldReadMs = COLD_READ_MS) {
    this.cold = new ColdReads(coldReadMs);
    this.dirs = new ScanDirectories(walker, start, walk, options, listings);
  }

  /** Walks on for at most `sliceMs` (or until a directory must be reopened, or a file read on the thread pool is not read yet). */
  slice(sliceMs: number): TreeScanBatch {
    const dirs = this.dirs;
    const selected: ScannedEntry[] = [];
    const until = performance.now() + sliceMs;
    let scanned = 0;
    let steps = 0;
    let contentBytes = 0;
    // One allocation per batch for the contents of its files, not one per file (a 10 KB Buffer each is
    // memory outside the heap that the collector must track); a batch's files are views into it.
    let slab: Buffer | undefined;
    try {
      while (!dirs.done) {
        if (++steps % ENTRIES_PER_CLOCK === 0 && performance.now() >= until) break;
        if (contentBytes >= BATCH_CONTENT_BYTES) break;
        const frame = dirs.top;
        if (frame.prepared < frame.entries.length) {
          if (frame.dir === null) break;
          this.prepare(frame);
          scanned += 1;
          continue;
        }
        if (frame.next >= frame.entries.length) {
          dirs.pop();
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
          dirs.changeInto(frame);
          child = dirs.openChild(frame, frame.next);
        } else if (child >= 0) {
          dirs.eager -= 1;
        }
        const index = frame.next++;
        const prepared = frame.reports[index];
        let report: ScannedEntry | undefined;
        if (prepared instanceof ReadWhenReported) {
          report = prepared.pool === undefined ? undefined : this.poolReadReport(frame.entries[index].name, prepared, prepared.pool);
          if (report === undefined && prepared.pool?.contents === undefined) {
            // Read as it is reported, not as it is prepared: a batch holds at most BATCH_CONTENT_BYTES of
            // contents, plus the one file that crosses it (read into a buffer of its own). A slab with room
            // for that file too was three times the bytes, garbage after each batch: an index build of a
            // million small files freed 750 MB of slabs, which malloc kept resident between collections.
            slab ??= Buffer.allocUnsafeSlow(BATCH_CONTENT_BYTES);
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
        if (child >= 0) dirs.enter(frame, frame.entries[index].name, child, (shallow) => this.judgeUnread(shallow));
      }
    } finally {
      dirs.endSlice();
    }
    return { scanned, selected };
  }

  /** Selects, stats and (for a directory to enter) opens the next entry of `frame`, which becomes the working directory. */
  private prepare(frame: Frame): void {
    this.dirs.changeInto(frame);
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
    else if (this.dirs.eager >= EAGER_DIRECTORIES) frame.children.push(LATER);
    else {
      const fd = this.dirs.openChild(frame, index);
      if (fd >= 0) this.dirs.openedAhead(fd);
      frame.children.push(fd);
    }
  }

  /** Files of `frame` still to be read when reported need its directory, which is about to be given back: judged now, by lstat, without bytes. */
  private judgeUnread(frame: Frame): void {
    for (let index = frame.next; index < frame.prepared; index += 1) {
      const pending = frame.reports[index];
      if (pending instanceof ReadWhenReported) frame.reports[index] = this.stat(frame, frame.entries[index].name, 'file', pending.relativePath);
    }
  }

  private stat(frame: Frame, name: string, kind: EntryKind, relativePath: string): ScannedEntry | undefined {
    let stats;
    try {
      stats = lstatSync(frame.prefix + name, { throwIfNoEntry: false });
    } catch (error) {
      throw translate(error, this.dirs.pathOf(relativePath));
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
    this.dirs.changeInto(frame);
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
      this.dirs.changeInto(frame);
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
}
