import { closeSync, read, type Stats } from 'node:fs';
import { openSmallRegularFile } from './small-files.js';

/**
 * A synchronous read of a file that took longer than COLD_READ_MS plus COLD_READ_MS_PER_BYTE a byte
 * came from the disk, not the page cache: here a cached read of a 10 KB file takes under 0.01 ms
 * (99.9% of them), of 256 KiB about 0.06; the same 10 KB file evicted from the cache, 0.1-0.5 ms.
 */
export const COLD_READ_MS = 0.05;
const COLD_READ_MS_PER_BYTE = 0.25e-6;
/** Slow reads in a row that make a scan go cold: one alone is as often the machine busy elsewhere (one in ~2,000 cached reads here). */
const SLOW_READS_TO_GO_COLD = 2;
/**
 * Once cold, the next this-many files are opened ahead and read on libuv's thread pool: several reads
 * wait on the disk at once (the first grep of a 200 MB tree just evicted took half as long), and the
 * event loop serves other requests meanwhile. Then the scan reads synchronously again, and two more
 * slow reads start another run.
 */
const COLD_RUN_FILES = 64;
/** Files a scan reads on the thread pool at once, at most (libuv runs four at a time by default); each holds at most maxBytes. */
const POOL_READS_IN_FLIGHT = 8;

/**
 * Whether a tree scan with readContents reads from a cold disk, and its reads on the thread pool while
 * it does. The scan times its synchronous reads (`timed`); two slow ones in a row start a run of
 * COLD_RUN_FILES files opened ahead (`open`) and read on the pool, which the scan reports in order
 * (`taken`), ending a slice to wait for one not read yet (`waitFor`, then `awaitWaiting` between slices).
 */
export class ColdReads {
  /** Slow synchronous reads in a row. */
  private slowReads = 0;
  /** Files still to be read on the thread pool in the current cold run. */
  private runLeft = 0;
  /** Reads on the thread pool not yet taken (or given up with the scan). */
  private readonly inFlight = new Set<PoolRead>();
  /** The read a slice stopped at because it had not settled. */
  private waiting?: PoolRead;

  constructor(
    /** See COLD_READ_MS (tests pass 0: every read counts as slow, and most files are read on the thread pool). */
    private readonly coldReadMs = COLD_READ_MS,
  ) {}

  /** A synchronous read of `bytes` took `ms`. */
  timed(ms: number, bytes: number): void {
    if (ms < this.coldReadMs + bytes * COLD_READ_MS_PER_BYTE) this.slowReads = 0;
    else if (++this.slowReads >= SLOW_READS_TO_GO_COLD) this.runLeft = COLD_RUN_FILES;
  }

  /** Whether the scan should open another file ahead to read on the pool now. */
  get wantsMore(): boolean {
    return this.runLeft > 0 && this.inFlight.size < POOL_READS_IN_FLIGHT;
  }

  get cold(): boolean {
    return this.runLeft > 0;
  }

  /**
   * Opens a selected file by `path` (a bare name in the working directory, or a /proc path) and starts
   * reading it on the pool: only a regular file of at most maxBytes; undefined for anything else (the
   * scan reads or judges it itself as it reports it).
   *
   * Security: opened as the scan opens a file it reads itself (O_NOFOLLOW, O_NONBLOCK) and fstat'ed
   * here, on the event loop's thread; only the reads of that descriptor run on the pool.
   */
  open(path: string, maxBytes: number): PoolRead | undefined {
    const opened = openSmallRegularFile(path, maxBytes);
    if (opened === undefined) return undefined;
    const started = new PoolRead(opened.fd, opened.stats);
    this.inFlight.add(started);
    this.runLeft -= 1;
    return started;
  }

  /** The scan reports `read` (or reads the file itself, when the read failed): it no longer counts as in flight. */
  taken(read: PoolRead): void {
    this.inFlight.delete(read);
  }

  /** A slice stops at `read`, not read yet. */
  waitFor(read: PoolRead): void {
    this.waiting = read;
  }

  /** Resolves once the read the last slice stopped at has settled. */
  async awaitWaiting(): Promise<void> {
    const read = this.waiting;
    this.waiting = undefined;
    if (read !== undefined) await read.settled;
  }

  /** Resolves once every read started has settled (and closed its descriptor): the scan ends only then. */
  async settled(): Promise<void> {
    this.waiting = undefined;
    await Promise.all([...this.inFlight].map((read) => read.settled));
    this.inFlight.clear();
  }
}

/**
 * A file a tree scan opened (by bare name, O_NOFOLLOW, and fstat'ed: a regular file of at most the
 * scan's maxBytes) whose bytes are read on libuv's thread pool: when the disk is cold, the event
 * loop serves other requests meanwhile, and up to four reads go to the disk at once.
 *
 * Security: only the `read` calls leave the event loop's thread, on a descriptor the scan opened and
 * checked there. The descriptor is this object's: it is closed here once the read has settled, never
 * before, so its number cannot name another file while a read on the pool still uses it.
 */
export class PoolRead {
  /** Reads started on the thread pool in this process (for tests and profiling). */
  static started = 0;
  /** The file's bytes once read; undefined while reading, or when the read failed (the scan then reads it itself). */
  contents?: Buffer;
  done = false;
  readonly settled: Promise<void>;

  constructor(
    fd: number,
    /** The fstat of the open file. */
    readonly stats: Stats,
  ) {
    PoolRead.started += 1;
    const size = stats.size;
    const bytes = Buffer.allocUnsafe(size);
    this.settled = new Promise<void>((resolve) => {
      let filled = 0;
      const finish = (contents: Buffer | undefined): void => {
        try {
          closeSync(fd);
        } catch {
          // The descriptor is released even when close reports an error; thrown here, it would take the process down.
        }
        this.contents = contents;
        this.done = true;
        resolve();
      };
      const next = (): void => {
        if (filled >= size) return finish(bytes);
        read(fd, bytes, filled, size - filled, filled, (error, bytesRead) => {
          if (error) return finish(undefined);
          // A file that shrank since its fstat ends early, as a synchronous read of it would.
          if (bytesRead === 0) return finish(bytes.subarray(0, filled));
          filled += bytesRead;
          next();
        });
      };
      next();
    });
  }
}
