import { randomBytes } from 'node:crypto';
import { mkdirSync, readdirSync, rmSync, statSync } from 'node:fs';
import { rename, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { CHANGE_ID, ChangeIds } from '../../../domain/changes/change-id.js';
import { newestFirst } from '../../../domain/changes/change-query.js';
import type { BeforeImage, ChangeDraft, ChangeJournal, ChangeQuery, ChangeRecord, EntryState, UndoInFlight } from '../../../domain/ports/change-journal.port.js';
import type { Clock } from '../../../domain/ports/clock.port.js';
import { checkPrivate } from '../node-fs/in-flight.js';
import { gone, HOST, type Owner } from './journal-owners.js';
import { UndoClaims } from './undo-claims.js';
import { BeginLog, segmentBytesFor } from './begin-log.js';
import { ForeignBeginLogs, type LoggedChange } from './begin-log-reader.js';
import { replayBeginLogs } from './begin-log-replay.js';
import { readStored, RecordIndex, type Held, type Stored } from './record-index.js';
import { RecordCheckpoint } from './record-checkpoint.js';
import { IdleCheckpoints, type CheckpointOutcome } from './idle-checkpoints.js';
import { UnwrittenImages } from './unwritten-images.js';
import { encodeImageFile, imageFileSize, readImageFile, readImageRecord, syncPath, writeSynced } from './image-files.js';

/**
 * The journal on disk (issue 20), in a private directory outside every root:
 *   records/<id>.img    the pending record and its before-image: a JSON header line, then the bytes
 *   records/<id>.json   a later version of the record (replaces the one in the image file atomically)
 *   records/<id>.done   empty: the change was made (the record committed without rewriting it)
 *   log/                the begin log (BeginLog): what makes a begin durable in one fdatasync
 *   claims/<id>         an undo's claim: in flight until the record says undone (UndoClaims)
 * Order makes it crash-safe: a begin is durable in the log before the change is made (the adapter
 * waits for begin before its rename); its image file is made durable when the log segment is
 * checkpointed, or rewritten from the log at start-up. Abort removes the image before the record,
 * so an image never outlives its record. A commit is not synced: lost in a crash, it leaves the
 * pending record, which recovery commits by what the root holds. Pending records of a process that
 * is gone are left for the domain's recovery, which commits or aborts each by what the roots hold.
 * The records are indexed in memory and read again when the records directory changed (another
 * server on the same journal wrote one). Start-up reads them from a checkpoint of that index when
 * the directory has not changed since it was written (RecordCheckpoint, issue 31), else in full.
 *
 * journal.max_bytes bounds the whole directory (issue 27): each record's files are measured as they
 * are written (an image file not written yet, at the size it will have), the begin log's segments
 * are counted until their checkpoint removes them, and a segment is retired at an eighth of
 * max_bytes, so the bounds can evict down to the number whatever the log holds.
 */
export class DiskChangeJournal implements ChangeJournal {
  private readonly index = new RecordIndex();
  private readonly ids = new ChangeIds();
  private readonly records: string;
  private readonly undos: UndoClaims;
  private readonly instance = randomBytes(6).toString('hex');
  private readonly log: BeginLog;
  private readonly unwritten: UnwrittenImages;
  /** Other servers' begin logs, and the committed changes last read from them. */
  private readonly foreign: ForeignBeginLogs;
  private logged = new Map<string, LoggedChange>();
  /** The records directory's mtime when the index was last read; another writer changes it. */
  private seen = -1;
  private readonly checkpoint: RecordCheckpoint;
  private readonly checkpoints = new IdleCheckpoints(() => this.writeCheckpoint());

  constructor(
    private readonly dir: string,
    private readonly clock: Clock,
    /** journal.max_bytes: the begin log's segments are sized from it. */
    maxBytes?: number,
  ) {
    // Security: records steer what an undo writes into a root; only this user may write them.
    checkPrivate(dir, 'journal directory');
    this.records = join(dir, 'records');
    const claims = join(dir, 'claims');
    const logDir = join(dir, 'log');
    for (const sub of [dir, this.records, claims, logDir]) mkdirSync(sub, { recursive: true, mode: 0o700 });
    this.undos = new UndoClaims(claims, { pid: process.pid, instance: this.instance, host: HOST });
    const files = { records: this.records, imageFile: (id: string) => this.imageFile(id), recordFile: (id: string) => this.recordFile(id) };
    replayBeginLogs(logDir, this.instance, files);
    this.foreign = new ForeignBeginLogs(logDir, this.instance);
    this.unwritten = new UnwrittenImages(this.records, (id) => this.storedNow(id), (id) => this.measure(id));
    const settle = async (ids: Iterable<string>) => (await Promise.allSettled([...ids].map((id) => this.unwritten.write(id)))).every((write) => write.status === 'fulfilled');
    const segmentBytes = maxBytes === undefined ? undefined : segmentBytesFor(maxBytes);
    this.log = new BeginLog(logDir, { pid: process.pid, instance: this.instance, host: HOST }, files, settle, { segmentBytes });
    this.checkpoint = new RecordCheckpoint(dir, this.records, claims);
    if (!this.adopt()) {
      this.load();
      this.checkpoints.due();
    }
    // Each call that changes the journal is busy until it settles, and makes a checkpoint due.
    for (const name of MUTATIONS) {
      const method = (this[name] as (...args: unknown[]) => Promise<unknown>).bind(this);
      (this as unknown as Record<string, unknown>)[name] = (...args: unknown[]) => this.checkpoints.track(method(...args));
    }
  }

  async begin(draft: ChangeDraft, image: BeforeImage | null): Promise<string> {
    const now = this.clock.now();
    const id = this.ids.next(now);
    const record: ChangeRecord = { ...draft, id, time: now.toISOString() };
    const owner: Owner = { pid: process.pid, instance: this.instance, host: HOST };
    const began: Held = { record, committed: false, imageBytes: 0, stored: 0, owner };
    this.index.put(id, began);
    try {
      // Durable in the begin log (one fdatasync, while the caller writes its temp file); the image
      // file is written after the change, with the state it then has (UnwrittenImages). A kill -9
      // before that leaves the begin in the log, which the next start-up writes out as a pending
      // record, and recovery commits or drops it by what the root holds.
      const { bytes, imageBytes } = encodeImageFile(image, { state: 'pending', record, owner } satisfies Stored);
      this.unwritten.add(id, image);
      this.index.put(id, { ...began, imageBytes });
      this.measure(id);
      await this.log.append(id, bytes);
    } catch (error) {
      await this.abort(id);
      throw error;
    }
    return id;
  }

  async commit(id: string, after?: EntryState | null): Promise<void> {
    const held = this.index.get(id);
    if (!held) return;
    held.committed = true;
    if (after !== undefined) {
      held.record = { ...held.record, after };
      await this.writeRecord({ state: 'committed', record: held.record }, false);
      this.measure(id);
      this.unwritten.later(this.unwritten.write(id));
      return;
    }
    // Its image file, if not written yet, will say committed.
    this.measure(id);
    // Fast path: a commit frame in the begin log (not synced, as the marker below is not), and the
    // image file, not written yet, written after the call saying committed. Lost in a power cut,
    // the pending record is committed at start-up by what the root holds.
    if (this.unwritten.has(id) && !this.unwritten.started(id)) {
      // Written once the call has answered (setImmediate): its encoding and its file are no part of the call.
      if (this.log.commit(id)) this.unwritten.later(new Promise((resolve) => setImmediate(resolve)).then(() => this.unwritten.write(id)));
      // Begun in a segment now closed: the image file is written now, saying committed.
      else await this.unwritten.write(id);
      return;
    }
    // Its image file is written (or being written) saying pending: an empty marker commits it.
    await writeFile(this.markerFile(id), '', { flag: 'a', mode: 0o600 });
  }

  async abort(id: string): Promise<void> {
    this.index.put(id, undefined);
    this.log.forget(id);
    await this.unwritten.cancel(id);
    await rm(this.imageFile(id), { force: true });
    await rm(this.recordFile(id), { force: true });
    await rm(this.markerFile(id), { force: true });
    await this.undos.release(id);
  }

  /** Pending records begun by another instance whose process is gone (or is this one: a reopened journal). */
  async pending(): Promise<ChangeRecord[]> {
    this.refresh();
    return this.index.pending((held) => held.owner === undefined || gone(held.owner, this.instance));
  }

  async list(query: ChangeQuery): Promise<ChangeRecord[]> {
    this.refresh();
    return newestFirst(this.index.committed(), query);
  }

  async get(id: string): Promise<ChangeRecord | null> {
    this.refresh();
    const held = this.index.get(id);
    return held?.committed ? held.record : null;
  }

  async image(id: string): Promise<BeforeImage | null> {
    const unwritten = this.unwritten.image(id);
    if (unwritten !== undefined) return unwritten;
    if (!CHANGE_ID.test(id)) return null;
    const image = await readImageFile(this.imageFile(id));
    const logged = this.logged.get(id);
    // Another server's change whose image file is not written yet: from its log.
    return image === null && logged !== undefined ? this.foreign.image(logged) : image;
  }

  async claimUndo(id: string, undoId: string, force = false): Promise<boolean> {
    this.refresh();
    const held = this.index.get(id);
    if (!CHANGE_ID.test(id) || !held?.committed || held.record.undoneBy !== undefined) return false;
    // The record is left as it is: it says undone only once the restore is on disk (finishUndo).
    const claimed = await this.undos.claim(id, undoId, force);
    if (claimed) this.measure(id);
    return claimed;
  }

  async finishUndo(id: string): Promise<void> {
    const held = this.index.get(id);
    const claim = this.undos.read(id);
    if (!held || claim === null) return;
    held.record = { ...held.record, undoneBy: claim.undoId };
    // The claim stays while the record does: another server whose index has not seen this record yet
    // (a directory's mtime is coarse) must still find the change claimed, never claim it again.
    await this.writeRecord({ state: 'committed', record: held.record });
    this.measure(id);
  }

  async releaseUndo(id: string): Promise<void> {
    await this.undos.release(id);
    this.measure(id);
  }

  async undosInFlight(): Promise<UndoInFlight[]> {
    this.refresh();
    return this.undos.dead().filter(({ id }) => this.index.get(id)?.committed === true && this.index.get(id)?.record.undoneBy === undefined);
  }

  adoptUndo(id: string): Promise<boolean> {
    return this.undos.adopt(id);
  }

  async dropImage(id: string, reason: string): Promise<void> {
    const held = this.index.get(id);
    if (!held) return;
    held.record = { ...held.record, undoable: false, reason };
    this.index.put(id, { ...held, imageBytes: 0 });
    // Its record is written below (the only file it needs now).
    await this.unwritten.cancel(id);
    // The record first (durably, in its own file): the image file may be the only place it was.
    await this.writeRecord({ state: held.committed ? 'committed' : 'pending', record: held.record, ...(held.owner ? { owner: held.owner } : {}) });
    await rm(this.imageFile(id), { force: true });
    this.measure(id);
  }

  async prune(before: Date): Promise<number> {
    const ids = this.index.committedBefore(before.getTime());
    for (const id of ids) await this.abort(id);
    return ids.length;
  }

  /** Resolves once every image file and marker of the changes so far is written (not synced). */
  async settled(): Promise<void> {
    await this.unwritten.flush();
  }

  /** Makes every begin's image file durable, removes the begin log (a clean shutdown leaves none), and writes the checkpoint. */
  async close(): Promise<void> {
    await this.settled();
    await this.log.close();
    await this.checkpoints.close();
  }

  /** What `id`'s image file says now: its record, committed or not (null once it is gone). */
  private storedNow(id: string): Stored | null {
    const held = this.index.get(id);
    if (held === undefined) return null;
    return { state: held.committed ? 'committed' : 'pending', record: held.record, ...(held.owner ? { owner: held.owner } : {}) };
  }

  async usage(): Promise<{ bytes: number; records: number }> {
    return this.index.usage();
  }

  /** The records' files, the begin log's segments until their checkpoint removes them, and the index's checkpoint. */
  async storedBytes(): Promise<number> {
    return this.index.stored() + this.log.bytes() + this.checkpoint.bytes();
  }

  async compact(): Promise<void> {
    await this.log.compact();
  }

  async oldestWithImage(limit: number): Promise<string[]> {
    return this.index.oldestWithImage(limit);
  }

  async oldest(limit: number): Promise<string[]> {
    return this.index.oldest(limit);
  }

  async forget(id: string): Promise<void> {
    if (this.index.get(id)?.committed) await this.abort(id);
  }

  /**
   * Records what `id`'s files hold now: its image file (or, not written yet, the size it will
   * have), its later record, its claim. `names`: the records directory's listing, when at hand.
   */
  private measure(id: string, names?: ReadonlySet<string>): void {
    const held = this.index.get(id);
    if (held === undefined) return;
    const present = (name: string) => names === undefined || names.has(name);
    const image = present(`${id}.img`) ? sizeOf(this.imageFile(id)) : 0;
    let bytes = image > 0 ? image : this.unwritten.length(id);
    if (present(`${id}.json`)) bytes += sizeOf(this.recordFile(id));
    // An undo's claim, in flight or finished (it stays with its record).
    bytes += sizeOf(this.undos.file(id));
    this.index.restate(id, bytes);
  }

  private recordFile(id: string): string {
    return join(this.records, `${id}.json`);
  }

  /** Present once the change was made: the record (still saying pending) is committed. */
  private markerFile(id: string): string {
    return join(this.records, `${id}.done`);
  }

  private imageFile(id: string): string {
    return join(this.records, `${id}.img`);
  }

  /** A later version of a record, atomically; `durable: false` leaves the rename unsynced (a commit: recovery redoes it). */
  private async writeRecord(stored: Stored, durable = true): Promise<void> {
    const temp = join(this.records, `.${stored.record.id}.tmp`);
    await writeSynced(temp, Buffer.from(JSON.stringify(stored)));
    await rename(temp, this.recordFile(stored.record.id));
    if (durable) await syncPath(this.records);
  }

  /** Start-up from the checkpoint, when it still describes the directory: its totals and the records recovery needs now, the rest when needed. */
  private adopt(): boolean {
    const mtime = statSync(this.records).mtimeMs;
    const adopted = this.checkpoint.adopt();
    if (adopted === null) return false;
    const { head } = adopted;
    const fallback = () => {
      // Torn: the directory is read in full.
      this.seen = -1;
      this.refresh();
    };
    this.index.seed(head, head.eager, { count: head.count, maxId: head.maxId, oldest: head.oldest, read: adopted.body, fallback });
    if (head.maxId !== '') this.ids.observe(head.maxId);
    this.seen = mtime;
    return true;
  }

  /** 'never': this server cannot vouch that its index is the directory's (another server's log is there, or it wrote a checkpoint). */
  private async writeCheckpoint(): Promise<CheckpointOutcome> {
    await this.unwritten.flush();
    if (this.checkpoints.busy() || this.unwritten.size() > 0) return 'later';
    if (this.foreign.look().size > 0) return 'never';
    return this.checkpoint.write(this.index.totals(), () => this.index.entries());
  }

  /** Start-up: reads every record; a temp of an interrupted record write, a torn begin, and a marker with no record are litter. */
  private load(): void {
    this.refresh();
    this.undos.removeLitter();
    for (const name of readdirSync(this.records)) {
      const id = name.replace(/\.(img|done|json)$/, '');
      if ((name.startsWith('.') && name.endsWith('.tmp')) || (id !== name && !this.index.has(id))) rmSync(join(this.records, name), { force: true });
    }
  }

  /** Reads the records again when another writer changed the directory since the last read. */
  private refresh(): void {
    const mtime = statSync(this.records).mtimeMs;
    const look = this.foreign.look();
    if (mtime === this.seen && !this.foreign.changed(look)) return;
    this.seen = mtime;
    const known = new Set<string>();
    const names = new Set(readdirSync(this.records));
    for (const name of names) {
      const id = name.replace(/\.(json|img)$/, '');
      if (id === name || known.has(id) || !CHANGE_ID.test(id)) continue;
      // A later version in <id>.json wins; else the version begin wrote with the image.
      const stored = names.has(`${id}.json`) ? readStored(join(this.records, `${id}.json`)) : (readImageRecord(this.imageFile(id)) as Stored | null);
      if (stored === null) continue;
      known.add(id);
      this.ids.observe(id);
      const mine = this.index.get(id);
      // An undo this server finished is in the index before its record is rewritten: keep it.
      if (mine?.record.undoneBy !== undefined && stored.record.undoneBy === undefined) stored.record = { ...stored.record, undoneBy: mine.record.undoneBy };
      const imageBytes = mine && mine.imageBytes > 0 ? mine.imageBytes : names.has(`${id}.img`) ? imageFileSize(this.imageFile(id)) : 0;
      // A commit of this server's whose marker is still being written stays committed.
      const committed = stored.state === 'committed' || names.has(`${id}.done`) || (mine?.committed === true && mine.owner?.instance === this.instance);
      this.index.put(id, { record: stored.record, committed, imageBytes, stored: mine?.stored ?? 0, owner: stored.owner });
      this.measure(id, names);
    }
    // Committed by another server on this journal whose image file is not written yet: from its log.
    this.logged = this.foreign.read(look);
    for (const [id, change] of this.logged) {
      if (known.has(id)) continue;
      const stored = change.stored as Stored;
      known.add(id);
      this.ids.observe(id);
      const mine = this.index.get(id);
      if (mine?.record.undoneBy !== undefined && stored.record.undoneBy === undefined) stored.record = { ...stored.record, undoneBy: mine.record.undoneBy };
      // Its image file is another server's to write: counted once it is (the log is that server's).
      this.index.put(id, { record: stored.record, committed: true, imageBytes: change.imageBytes, stored: 0, owner: stored.owner });
    }
    // Gone from disk: another writer's abort or prune. Not a change this server is beginning, whose
    // file is not in place yet (a re-read in that window must not lose it, or its commit would be).
    // Nor one whose image file is not written yet.
    for (const [id, held] of this.index.entries()) if (!known.has(id) && !this.unwritten.has(id) && !(held.owner?.instance === this.instance && !held.committed)) this.index.put(id, undefined);
  }
}

/** The calls that change the journal (see track). */
const MUTATIONS = ['begin', 'commit', 'abort', 'claimUndo', 'finishUndo', 'releaseUndo', 'adoptUndo', 'dropImage', 'prune', 'forget'] as const;

function sizeOf(file: string): number {
  try {
    return statSync(file).size;
  } catch {
    return 0;
  }
}
