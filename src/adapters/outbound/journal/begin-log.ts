import { closeSync, fdatasync, openSync, renameSync, rmSync, unlinkSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { beginPayload, frame, writeAll, writeAllOnPool } from './begin-log-format.js';
import { syncPath } from './image-files.js';
import type { Owner } from './journal-owners.js';

const fdatasyncOnPool = promisify(fdatasync);

/** A segment is checkpointed and removed once it holds this much (or an eighth of journal.max_bytes, if less). */
const SEGMENT_BYTES = 32 * 1024 * 1024;

/** The segment size for a journal bounded to `maxBytes`: the log's part of the bound stays small. */
export function segmentBytesFor(maxBytes: number): number {
  return Math.min(SEGMENT_BYTES, Math.floor(maxBytes / 8));
}
const IDLE_CLOSE_MS = 200;
/** How many image files a checkpoint syncs at once. */
const SYNC_TOGETHER = 8;

/** Where a begin's image file lives, and where its later record would be (a record there supersedes the log). */
export interface ImageFiles {
  readonly records: string;
  imageFile(id: string): string;
  recordFile(id: string): string;
}

/** Test seams: the segment size, how an append is made durable, and how long an unused descriptor stays open. */
export interface BeginLogOptions {
  readonly segmentBytes?: number;
  readonly sync?: (fd: number) => Promise<void>;
  readonly idleCloseMs?: number;
}

interface Appending {
  readonly id: string;
  readonly frame: Buffer;
  resolve(): void;
  reject(error: unknown): void;
}

interface Segment {
  /** Open while the log is in use; closed after `idleCloseMs` without use (a quiet server holds no descriptor). */
  fd: number | null;
  readonly name: string;
  /** Changes begun in it whose image files are not yet known durable. */
  readonly ids: Set<string>;
  offset: number;
}

/**
 * The journal's write-ahead log of begins (issue 20's bench bar): what makes a begin durable in one
 * fdatasync of an appended file, instead of an fsync of the image file plus one of its directory.
 * A begin writes its image file (record + image) unsynced, then appends the same bytes here; the
 * append is durable when it resolves, and the change is made only after that. Appends that arrive
 * while one is being synced go out together in the next write (group commit).
 *
 * A segment (log/<instance>-<n>.log, owner frame first) is checkpointed once it is full or the
 * journal closes: every image file it covers is fsync'd, then the records directory, then the
 * segment is removed. At start-up the segments of servers that are gone are replayed: an image
 * file that is missing or differs (torn by a power cut) is written again from the log, unless a
 * later version of its record exists. An abort appends a `gone` frame, so a replay does not bring
 * the change back (lost with the page cache in a power cut, recovery judges it by the root).
 */
export class BeginLog {
  private segment: Segment | null = null;
  /** The next segment, made ahead when one is retired: its name's directory sync is no call's. */
  private next: Promise<Segment | null> | null = null;
  /** Bytes of retired segments whose checkpoint has not removed them yet. */
  private retired = 0;
  private sequence = 0;
  private queue: Appending[] = [];
  private flushing: Promise<void> | null = null;
  private checkpoints: Promise<void> = Promise.resolve();
  private idle: NodeJS.Timeout | null = null;
  private readonly segmentBytes: number;
  private readonly sync: (fd: number) => Promise<void>;
  private readonly idleCloseMs: number;

  constructor(
    private readonly dir: string,
    private readonly owner: Owner,
    private readonly files: ImageFiles,
    /** Writes out the image files of these changes that are not written yet (false: one could not be); a checkpoint syncs them next. */
    private readonly settle: (ids: Iterable<string>) => Promise<boolean>,
    options: BeginLogOptions = {},
  ) {
    this.segmentBytes = options.segmentBytes ?? SEGMENT_BYTES;
    this.sync = options.sync ?? fdatasyncOnPool;
    this.idleCloseMs = options.idleCloseMs ?? IDLE_CLOSE_MS;
  }

  /** Appends the bytes `id`'s image file is to hold; resolves once they are on disk. */
  append(id: string, imageFileBytes: Buffer): Promise<void> {
    return new Promise<void>((resolve, reject) => {
      this.queue.push({ id, frame: frame('begin', beginPayload(id, imageFileBytes)), resolve, reject });
      this.flushing ??= this.flush();
    });
  }

  /**
   * The change was made: a commit frame, written but not synced (it survives a kill -9 in the page
   * cache; lost in a power cut, recovery commits the change by what the root holds). Written on the
   * event loop: a few dozen bytes cost less than a pool hop. False when `id` was not begun in the
   * open segment, or the frame could not be written: the caller records the commit itself.
   */
  commit(id: string): boolean {
    const segment = this.segment;
    if (segment === null || !segment.ids.has(id)) return false;
    const commit = frame('commit', Buffer.from(id));
    try {
      writeAll(this.descriptor(segment), commit, segment.offset);
    } catch {
      return false;
    }
    segment.offset += commit.byteLength;
    return true;
  }

  /** The change was not made (or its record is gone): a replay must not bring it back. */
  forget(id: string): void {
    const segment = this.segment;
    if (segment === null || !segment.ids.delete(id)) return;
    try {
      const gone = frame('gone', Buffer.from(id));
      writeAll(this.descriptor(segment), gone, segment.offset);
      segment.offset += gone.byteLength;
    } catch {
      // Unwritten, a replay finds the begin with no change made: recovery drops it by what the root holds.
    }
  }

  /** What the log's segments of this server hold on disk now. */
  bytes(): number {
    return (this.segment?.offset ?? 0) + this.retired;
  }

  /** Waits for the checkpoints under way, so the segments they cover are gone (the journal's bounds, before evicting). */
  async compact(): Promise<void> {
    await this.checkpoints;
  }

  /** Writes what is queued, checkpoints the open segment, and waits for every checkpoint. */
  async close(): Promise<void> {
    await this.flushing;
    if (this.idle !== null) clearTimeout(this.idle);
    this.idle = null;
    this.retire(false);
    await this.checkpoints;
    // The segment made ahead holds no begin: nothing to checkpoint.
    const next = await this.next;
    this.next = null;
    if (next !== null) {
      if (next.fd !== null) closeSync(next.fd);
      // Left behind, the next start-up removes it (its owner is gone, and it holds no begin).
      rmSync(join(this.dir, next.name), { force: true });
    }
  }

  private async flush(): Promise<void> {
    try {
      while (this.queue.length > 0) {
        const batch = this.queue.splice(0);
        try {
          const segment = this.segment ?? (await this.open());
          this.segment = segment;
          const bytes = Buffer.concat(batch.map((appending) => appending.frame));
          const at = segment.offset;
          segment.offset += bytes.byteLength;
          for (const appending of batch) segment.ids.add(appending.id);
          // On the pool: an append may wait for a file-system journal commit, which must not hold the event loop.
          const fd = this.descriptor(segment);
          await writeAllOnPool(fd, bytes, at);
          await this.sync(fd);
          for (const appending of batch) appending.resolve();
        } catch (error) {
          // A torn tail ends this segment: later begins go to a new one.
          this.retire();
          for (const appending of batch) appending.reject(error);
        }
        if (this.segment !== null && this.segment.offset >= this.segmentBytes) this.retire();
      }
    } finally {
      this.flushing = null;
    }
  }

  /** The segment made ahead, or a new one. */
  private async open(): Promise<Segment> {
    const next = this.next;
    this.next = null;
    return (await next) ?? (await this.create());
  }

  /** A new segment: its owner frame written under a temp name, renamed, and the name made durable. */
  private async create(): Promise<Segment> {
    this.sequence += 1;
    const name = `${this.owner.instance}-${this.sequence}.log`;
    const temp = join(this.dir, `.${name}.tmp`);
    const fd = openSync(temp, 'wx+', 0o600);
    try {
      const owner = frame('owner', Buffer.from(JSON.stringify(this.owner)));
      writeAll(fd, owner, 0);
      renameSync(temp, join(this.dir, name));
      await syncPath(this.dir);
      return { fd, name, ids: new Set(), offset: owner.byteLength };
    } catch (error) {
      closeSync(fd);
      throw error;
    }
  }

  /** Stops appending to the open segment and queues its checkpoint; `ahead`: makes the next one meanwhile. */
  private retire(ahead = true): void {
    const segment = this.segment;
    if (segment === null) return;
    this.segment = null;
    this.retired += segment.offset;
    this.checkpoints = this.checkpoints.then(() => this.checkpoint(segment)).catch(() => undefined);
    if (ahead) this.next ??= this.ahead();
  }

  /** The next segment, made off every call's path; held without a descriptor until used (null: the next begin makes one). */
  private async ahead(): Promise<Segment | null> {
    try {
      const segment = await this.create();
      if (segment.fd !== null) closeSync(segment.fd);
      segment.fd = null;
      return segment;
    } catch {
      return null;
    }
  }

  private async checkpoint(segment: Segment): Promise<void> {
    try {
      const written = await this.settle(segment.ids);
      // A few at a time: fsyncs issued together share the file system's journal commits.
      const ids = [...segment.ids];
      for (let i = 0; i < ids.length; i += SYNC_TOGETHER) {
        await Promise.all(ids.slice(i, i + SYNC_TOGETHER).map((id) => syncPath(this.files.imageFile(id)).catch(() => undefined)));
      }
      await syncPath(this.files.records);
      // An image file that could not be written (a full disk): the next start-up replays it from here.
      if (written) {
        unlinkSync(join(this.dir, segment.name));
        this.retired -= segment.offset;
      }
    } finally {
      if (segment.fd !== null) closeSync(segment.fd);
      segment.fd = null;
    }
  }

  /** The open segment's descriptor, opened again if it was closed for idleness; the idle clock restarts. */
  private descriptor(segment: Segment): number {
    segment.fd ??= openSync(join(this.dir, segment.name), 'r+');
    if (this.idle !== null) clearTimeout(this.idle);
    this.idle = setTimeout(() => {
      this.idle = null;
      // Not while a batch is being written (it holds the descriptor across its awaits).
      if (this.flushing !== null || this.segment !== segment || segment.fd === null) return;
      closeSync(segment.fd);
      segment.fd = null;
    }, this.idleCloseMs);
    this.idle.unref();
    return segment.fd;
  }
}

