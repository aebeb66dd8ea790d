import { createHash } from 'node:crypto';
import { closeSync, existsSync, fdatasync, fsync, fsyncSync, openSync, readdirSync, readFileSync, renameSync, unlinkSync, write, writeSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { promisify } from 'node:util';
import { gone, type Owner } from './journal-owners.js';

const fdatasyncOnPool = promisify(fdatasync);
const fsyncOnPool = promisify(fsync);
const writeOnPool = promisify(write);

const MAGIC = Buffer.from('MFJL');
/** magic (4), kind (1), unused (3), payload length (4), the payload's sha256, first 8 bytes. */
const HEADER = 20;
/** A segment is checkpointed and removed once it holds this much. */
const SEGMENT_BYTES = 32 * 1024 * 1024;

type Kind = 'owner' | 'begin' | 'commit' | 'gone';
const KIND_BYTE: Record<Kind, number> = { owner: 0x4f, begin: 0x42, commit: 0x43, gone: 0x47 };

/** Where a begin's image file lives, and where its later record would be (a record there supersedes the log). */
export interface ImageFiles {
  readonly records: string;
  imageFile(id: string): string;
  recordFile(id: string): string;
}

interface Appending {
  readonly id: string;
  readonly frame: Buffer;
  resolve(): void;
  reject(error: unknown): void;
}

interface Segment {
  readonly fd: number;
  readonly name: string;
  /** Changes begun in it whose image files are not yet known durable. */
  readonly ids: Set<string>;
  /** Commit frames being written (awaited before its descriptor is closed). */
  readonly writing: Set<Promise<void>>;
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
  private sequence = 0;
  private queue: Appending[] = [];
  private flushing: Promise<void> | null = null;
  private checkpoints: Promise<void> = Promise.resolve();

  constructor(
    private readonly dir: string,
    private readonly owner: Owner,
    private readonly files: ImageFiles,
    /** Writes out the image files of these changes that are not written yet (false: one could not be); a checkpoint syncs them next. */
    private readonly settle: (ids: Iterable<string>) => Promise<boolean>,
    private readonly segmentBytes = SEGMENT_BYTES,
  ) {}

  /** Appends the bytes `id`'s image file is to hold; resolves once they are on disk. */
  append(id: string, imageFileBytes: Buffer): Promise<void> {
    return new Promise<void>((resolve, reject) => {
      this.queue.push({ id, frame: frame('begin', Buffer.concat([Buffer.from(`${id}\n`), imageFileBytes])), resolve, reject });
      this.flushing ??= this.flush();
    });
  }

  /**
   * The change was made: a commit frame, written but not synced (it survives a kill -9 in the page
   * cache; lost in a power cut, recovery commits the change by what the root holds). False when
   * `id` was not begun in the open segment: the caller records the commit itself.
   */
  commit(id: string): Promise<boolean> {
    const segment = this.segment;
    if (segment === null || !segment.ids.has(id)) return Promise.resolve(false);
    const commit = frame('commit', Buffer.from(id));
    const at = segment.offset;
    segment.offset += commit.byteLength;
    // On the pool: an append may wait for a file-system journal commit, which must not hold the event loop.
    const written = writeAllOnPool(segment.fd, commit, at);
    const tracked = written.catch(() => undefined);
    segment.writing.add(tracked);
    void tracked.finally(() => segment.writing.delete(tracked));
    return written.then(() => true);
  }

  /** The change was not made (or its record is gone): a replay must not bring it back. */
  forget(id: string): void {
    const segment = this.segment;
    if (segment === null || !segment.ids.delete(id)) return;
    try {
      const gone = frame('gone', Buffer.from(id));
      writeAll(segment.fd, gone, segment.offset);
      segment.offset += gone.byteLength;
    } catch {
      // Unwritten, a replay finds the begin with no change made: recovery drops it by what the root holds.
    }
  }

  /** Writes what is queued, checkpoints the open segment, and waits for every checkpoint. */
  async close(): Promise<void> {
    await this.flushing;
    this.retire();
    await this.checkpoints;
  }

  private async flush(): Promise<void> {
    try {
      while (this.queue.length > 0) {
        const batch = this.queue.splice(0);
        try {
          const segment = this.segment ?? (await this.open());
          const bytes = Buffer.concat(batch.map((appending) => appending.frame));
          const at = segment.offset;
          segment.offset += bytes.byteLength;
          for (const appending of batch) segment.ids.add(appending.id);
          // On the pool: an append may wait for a file-system journal commit, which must not hold the event loop.
          await writeAllOnPool(segment.fd, bytes, at);
          await fdatasyncOnPool(segment.fd);
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

  /** A new segment: its owner frame written under a temp name, renamed, and the name made durable. */
  private async open(): Promise<Segment> {
    this.sequence += 1;
    const name = `${this.owner.instance}-${this.sequence}.log`;
    const temp = join(this.dir, `.${name}.tmp`);
    const fd = openSync(temp, 'wx+', 0o600);
    try {
      const owner = frame('owner', Buffer.from(JSON.stringify(this.owner)));
      writeAll(fd, owner, 0);
      renameSync(temp, join(this.dir, name));
      await syncPath(this.dir);
      this.segment = { fd, name, ids: new Set(), writing: new Set(), offset: owner.byteLength };
      return this.segment;
    } catch (error) {
      closeSync(fd);
      throw error;
    }
  }

  /** Stops appending to the open segment and queues its checkpoint. */
  private retire(): void {
    const segment = this.segment;
    if (segment === null) return;
    this.segment = null;
    this.checkpoints = this.checkpoints.then(() => this.checkpoint(segment)).catch(() => undefined);
  }

  private async checkpoint(segment: Segment): Promise<void> {
    try {
      const written = await this.settle(segment.ids);
      await Promise.all(segment.writing);
      for (const id of segment.ids) await syncPath(this.files.imageFile(id)).catch(() => undefined);
      await syncPath(this.files.records);
      // An image file that could not be written (a full disk): the next start-up replays it from here.
      if (written) unlinkSync(join(this.dir, segment.name));
    } finally {
      closeSync(segment.fd);
    }
  }
}

/**
 * Start-up, before the records are read: replays the segments of servers that are gone (an earlier
 * run of this one included) into image files, then removes them. Another live server's are its own.
 */
export function replayBeginLogs(dir: string, instance: string, files: ImageFiles): number {
  let restored = 0;
  for (const name of readdirSync(dir)) {
    const file = join(dir, name);
    const bytes = readFileSync(file);
    const framed = [...frames(bytes)];
    const owner = framed[0]?.kind === 'owner' ? (parseOwner(framed[0].payload) ?? null) : null;
    // Not ours to judge: a live server's, or one whose owner frame was never written (unknown).
    if (owner === null || !gone(owner, instance)) continue;
    const begun = new Map<string, Buffer>();
    const committed = new Set<string>();
    for (const { kind, payload } of framed) {
      if (kind === 'begin') {
        const newline = payload.indexOf(0x0a);
        begun.set(payload.subarray(0, newline).toString('latin1'), payload.subarray(newline + 1));
      } else if (kind === 'commit') committed.add(payload.toString('latin1'));
      else if (kind === 'gone') begun.delete(payload.toString('latin1'));
    }
    if (name.endsWith('.log')) {
      for (const [id, image] of begun) if (restore(files, id, image, committed.has(id))) restored += 1;
      syncPathNow(files.records);
    }
    unlinkSync(file);
  }
  return restored;
}

/**
 * Makes `id`'s image file hold what the log says, durably: the begin's bytes, saying committed when
 * a commit frame followed. False when the file already did (written after the change, and only its
 * sync was missing) or a later version of the record supersedes it.
 */
function restore(files: ImageFiles, id: string, logged: Buffer, committed: boolean): boolean {
  if (existsSync(files.recordFile(id))) return false;
  const target = files.imageFile(id);
  const wanted = committed ? committedVersion(logged) : logged;
  let current: Buffer | null = null;
  try {
    current = readFileSync(target);
  } catch {
    // Missing: a power cut lost it, or it was never written (a kill -9 came first).
  }
  if (current !== null && sameImage(current, wanted, id, committed)) {
    syncPathNow(target);
    return false;
  }
  // A dot name ending .tmp: litter the journal's start-up removes, should this be cut short.
  const temp = join(dirname(target), `.${basename(target)}.replay.tmp`);
  const fd = openSync(temp, 'w', 0o600);
  try {
    writeAll(fd, wanted, 0);
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
  renameSync(temp, target);
  return true;
}

interface ImageHeader {
  record?: { state?: string; record?: { id?: string } };
}

/** The begin's image file bytes with its record saying committed. */
function committedVersion(logged: Buffer): Buffer {
  const newline = logged.indexOf(0x0a);
  const header = JSON.parse(logged.subarray(0, newline).toString('utf8')) as ImageHeader;
  if (header.record !== undefined) header.record.state = 'committed';
  return Buffer.concat([Buffer.from(JSON.stringify(header)), logged.subarray(newline)]);
}

/** Whether an image file on disk is whole and says what the log does (its header may be a later rendering of the same record). */
function sameImage(current: Buffer, wanted: Buffer, id: string, committed: boolean): boolean {
  const newline = current.indexOf(0x0a);
  if (newline < 0 || !current.subarray(newline).equals(wanted.subarray(wanted.indexOf(0x0a)))) return false;
  try {
    const header = JSON.parse(current.subarray(0, newline).toString('utf8')) as ImageHeader;
    return header.record?.record?.id === id && (!committed || header.record.state === 'committed');
  } catch {
    return false;
  }
}

function frame(kind: Kind, payload: Buffer): Buffer {
  const header = Buffer.alloc(HEADER);
  MAGIC.copy(header, 0);
  header[4] = KIND_BYTE[kind];
  header.writeUInt32BE(payload.byteLength, 8);
  checksum(payload).copy(header, 12);
  return Buffer.concat([header, payload]);
}

/** The whole frames at the start of a segment; a torn or foreign one ends it. */
function* frames(bytes: Buffer): Iterable<{ kind: Kind; payload: Buffer }> {
  const kinds = new Map(Object.entries(KIND_BYTE).map(([kind, byte]) => [byte, kind as Kind]));
  for (let at = 0; at + HEADER <= bytes.byteLength; ) {
    const kind = kinds.get(bytes[at + 4]!);
    const end = at + HEADER + bytes.readUInt32BE(at + 8);
    if (!bytes.subarray(at, at + 4).equals(MAGIC) || kind === undefined || end > bytes.byteLength) return;
    const payload = bytes.subarray(at + HEADER, end);
    if (!checksum(payload).equals(bytes.subarray(at + 12, at + HEADER))) return;
    yield { kind, payload };
    at = end;
  }
}

function checksum(payload: Buffer): Buffer {
  return createHash('sha256').update(payload).digest().subarray(0, 8);
}

function parseOwner(payload: Buffer): Owner | undefined {
  try {
    const owner = JSON.parse(payload.toString('utf8')) as Partial<Owner>;
    return typeof owner.pid === 'number' && typeof owner.instance === 'string' ? (owner as Owner) : undefined;
  } catch {
    return undefined;
  }
}

function writeAll(fd: number, bytes: Buffer, position: number): void {
  for (let done = 0; done < bytes.byteLength; ) done += writeSync(fd, bytes, done, bytes.byteLength - done, position + done);
}

async function writeAllOnPool(fd: number, bytes: Buffer, position: number): Promise<void> {
  for (let done = 0; done < bytes.byteLength; ) done += (await writeOnPool(fd, bytes, done, bytes.byteLength - done, position + done)).bytesWritten;
}

async function syncPath(path: string): Promise<void> {
  const fd = openSync(path, 'r');
  try {
    await fsyncOnPool(fd);
  } finally {
    closeSync(fd);
  }
}

function syncPathNow(path: string): void {
  const fd = openSync(path, 'r');
  try {
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
}
