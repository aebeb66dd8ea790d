import { randomBytes } from 'node:crypto';
import { linkSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, statSync } from 'node:fs';
import { rename, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { CHANGE_ID, ChangeIds } from '../../../domain/changes/change-id.js';
import { newestFirst } from '../../../domain/changes/change-query.js';
import type { BeforeImage, ChangeDraft, ChangeJournal, ChangeQuery, ChangeRecord, EntryState } from '../../../domain/ports/change-journal.port.js';
import type { Clock } from '../../../domain/ports/clock.port.js';
import { checkPrivate } from '../node-fs/in-flight.js';
import { deadClaim, gone, HOST, type Claim, type Owner } from './journal-owners.js';
import { imageFileSize, readImageFile, readImageRecord, syncDirectory, writeImageFile, writeSynced } from './image-files.js';

interface Stored {
  readonly state: 'pending' | 'committed';
  record: ChangeRecord;
  /** Who began it: a pending record of a live process (another server on this journal) is its business, not recovery's. */
  readonly owner?: Owner;
}


interface Held {
  record: ChangeRecord;
  committed: boolean;
  imageBytes: number;
  owner?: Stored['owner'];
}

/**
 * The journal on disk (issue 20), in a private directory outside every root:
 *   records/<id>.json   one record each; later versions replace it atomically (temp + fsync + rename)
 *   records/<id>.img    its before-image: a JSON manifest line, then the bytes of every file in it
 *   records/<id>.done   empty: the change was made (the record committed without rewriting it)
 * Order makes it crash-safe: the pending record and the image, each fsync'd (side by side), then one
 * fsync of the directory, all before the change is made (the adapter waits for begin before its
 * rename); abort removes the image before the record, so an image never outlives its record. A commit
 * is not synced: lost in a crash, it leaves the pending record, which recovery commits by what the
 * root holds. Pending records of a process that is gone are left for the domain's recovery, which
 * commits or aborts each by what the roots hold. The records are indexed in memory and read again
 * when the records directory changed (another server on the same journal wrote one).
 */
export class DiskChangeJournal implements ChangeJournal {
  private readonly held = new Map<string, Held>();
  /** Image bytes of every held record (kept by put). */
  private bytes = 0;
  private readonly ids = new ChangeIds();
  private readonly records: string;
  private readonly claims: string;
  private readonly instance = randomBytes(6).toString('hex');
  /** The records directory's mtime when the index was last read; another writer changes it. */
  private seen = -1;

  constructor(
    private readonly dir: string,
    private readonly clock: Clock,
  ) {
    // Security: records steer what an undo writes into a root; only this user may write them.
    checkPrivate(dir, 'journal directory');
    this.records = join(dir, 'records');
    this.claims = join(dir, 'claims');
    for (const sub of [dir, this.records, this.claims]) mkdirSync(sub, { recursive: true, mode: 0o700 });
    this.load();
  }

  async begin(draft: ChangeDraft, image: BeforeImage | null): Promise<string> {
    const now = this.clock.now();
    const id = this.ids.next(now);
    const record: ChangeRecord = { ...draft, id, time: now.toISOString() };
    const owner: Owner = { pid: process.pid, instance: this.instance, host: HOST };
    const began: Held = { record, committed: false, imageBytes: 0, owner };
    this.put(id, began);
    try {
      // The pending record and the image in one file (one fsync), renamed into place, then one fsync
      // of the directory for its name. A kill -9 inside begin leaves no file or a temp, which load
      // removes: the change was not made yet.
      const temp = join(this.records, `.${id}.img.tmp`);
      const imageBytes = await writeImageFile(temp, image, { state: 'pending', record, owner } satisfies Stored);
      await rename(temp, this.imageFile(id));
      this.put(id, { ...(this.held.get(id) ?? began), imageBytes });
      await syncDirectory(this.records);
    } catch (error) {
      await this.abort(id);
      throw error;
    }
    return id;
  }

  async commit(id: string, after?: EntryState | null): Promise<void> {
    const held = this.held.get(id);
    if (!held) return;
    held.committed = true;
    if (after !== undefined) {
      held.record = { ...held.record, after };
      await this.writeRecord({ state: 'committed', record: held.record }, false);
      return;
    }
    // Fast path: an empty marker, not synced. It cannot be torn (it exists or not); lost in a power
    // cut, it leaves the pending record, which recovery commits by what the root holds.
    await writeFile(this.markerFile(id), '', { flag: 'a', mode: 0o600 });
  }

  async abort(id: string): Promise<void> {
    this.put(id, undefined);
    await rm(this.imageFile(id), { force: true });
    await rm(this.recordFile(id), { force: true });
    await rm(this.markerFile(id), { force: true });
    await rm(join(this.claims, id), { force: true });
  }

  /** Pending records begun by another instance whose process is gone (or is this one: a reopened journal). */
  async pending(): Promise<ChangeRecord[]> {
    this.refresh();
    return [...this.held.values()]
      .filter((held) => !held.committed && (held.owner === undefined || gone(held.owner, this.instance)))
      .map((held) => held.record);
  }

  async list(query: ChangeQuery): Promise<ChangeRecord[]> {
    this.refresh();
    return newestFirst(this.committed(), query);
  }

  async get(id: string): Promise<ChangeRecord | null> {
    this.refresh();
    const held = this.held.get(id);
    return held?.committed ? held.record : null;
  }

  async image(id: string): Promise<BeforeImage | null> {
    return CHANGE_ID.test(id) ? readImageFile(this.imageFile(id)) : null;
  }

  async claimUndo(id: string, undoId: string): Promise<boolean> {
    this.refresh();
    const held = this.held.get(id);
    if (!CHANGE_ID.test(id) || !held?.committed || held.record.undoneBy !== undefined) return false;
    // The claim is a file made with O_EXCL: of two undos, in this process or in two servers on one
    // shared journal, exactly one creates it.
    try {
      const claim: Claim = { undoId, pid: process.pid, instance: this.instance, host: HOST };
      await writeSynced(join(this.claims, id), Buffer.from(JSON.stringify(claim)), 'wx');
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'EEXIST') return false;
      throw error;
    }
    held.record = { ...held.record, undoneBy: undoId };
    await this.writeRecord({ state: 'committed', record: held.record });
    return true;
  }

  async releaseUndo(id: string): Promise<void> {
    const held = this.held.get(id);
    if (!held) return;
    const { undoneBy: _released, ...record } = held.record;
    held.record = record;
    await this.writeRecord({ state: 'committed', record });
    await rm(join(this.claims, id), { force: true });
  }

  async dropImage(id: string, reason: string): Promise<void> {
    const held = this.held.get(id);
    if (!held) return;
    held.record = { ...held.record, undoable: false, reason };
    this.put(id, { ...held, imageBytes: 0 });
    // The record first (durably, in its own file): the image file may be the only place it was.
    await this.writeRecord({ state: held.committed ? 'committed' : 'pending', record: held.record, ...(held.owner ? { owner: held.owner } : {}) });
    await rm(this.imageFile(id), { force: true });
  }

  async prune(before: Date): Promise<number> {
    let removed = 0;
    for (const [id, held] of [...this.held]) {
      if (held.committed && Date.parse(held.record.time) < before.getTime()) {
        await this.abort(id);
        removed += 1;
      }
    }
    return removed;
  }

  async usage(): Promise<{ bytes: number; records: number }> {
    return { bytes: this.bytes, records: this.held.size };
  }

  async oldestWithImage(limit: number): Promise<string[]> {
    return [...this.held.values()]
      .filter((held) => held.committed && held.imageBytes > 0)
      .map((held) => held.record.id)
      .sort()
      .slice(0, limit);
  }

  /** Every change to the index goes through here, so the bytes held are counted as they change, not summed per call. */
  private put(id: string, held: Held | undefined): void {
    this.bytes -= this.held.get(id)?.imageBytes ?? 0;
    if (held === undefined) {
      this.held.delete(id);
      return;
    }
    this.held.set(id, held);
    this.bytes += held.imageBytes;
  }

  private *committed(): Iterable<ChangeRecord> {
    for (const held of this.held.values()) if (held.committed) yield held.record;
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
    if (durable) await syncDirectory(this.records);
  }

  /** Start-up: reads every record; a temp of an interrupted record write, a torn begin, and a marker with no record are litter. */
  private load(): void {
    this.refresh();
    this.settleClaims();
    for (const name of readdirSync(this.records)) {
      const id = name.replace(/\.(img|done|json)$/, '');
      if ((name.startsWith('.') && name.endsWith('.tmp')) || (id !== name && !this.held.has(id))) rmSync(join(this.records, name), { force: true });
    }
  }

  /**
   * Start-up: a claim whose server is gone while its record does not say undone was never used: the
   * restore runs only once the record says so, and a release rewrites the record before it removes
   * the claim. Left, it would refuse every later undo of that change ("another undo ran first").
   * It is moved aside first and removed only if it is still the dead server's, so a claim a live
   * server made meanwhile is never taken.
   */
  private settleClaims(): void {
    for (const id of readdirSync(this.claims)) {
      const held = this.held.get(id);
      if (!CHANGE_ID.test(id) || held?.record.undoneBy !== undefined || !deadClaim(join(this.claims, id), this.instance)) continue;
      const aside = join(this.claims, `.${id}.${this.instance}.stale`);
      try {
        renameSync(join(this.claims, id), aside);
        if (!deadClaim(aside, this.instance)) linkSync(aside, join(this.claims, id));
      } catch {
        // Taken or removed by another server meanwhile: theirs to settle.
      }
      rmSync(aside, { force: true });
    }
  }

  /** Reads the records again when another writer changed the directory since the last read. */
  private refresh(): void {
    const mtime = statSync(this.records).mtimeMs;
    if (mtime === this.seen) return;
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
      const mine = this.held.get(id);
      // A claim this server made is on disk (claims/) before its record is rewritten: keep it.
      if (mine?.record.undoneBy !== undefined && stored.record.undoneBy === undefined) stored.record = { ...stored.record, undoneBy: mine.record.undoneBy };
      const imageBytes = mine && mine.imageBytes > 0 ? mine.imageBytes : names.has(`${id}.img`) ? imageFileSize(this.imageFile(id)) : 0;
      this.put(id, { record: stored.record, committed: stored.state === 'committed' || names.has(`${id}.done`), imageBytes, owner: stored.owner });
    }
    // Gone from disk: another writer's abort or prune. Not a change this server is beginning, whose
    // file is not in place yet (a re-read in that window must not lose it, or its commit would be).
    for (const [id, held] of [...this.held]) if (!known.has(id) && !(held.owner?.instance === this.instance && !held.committed)) this.put(id, undefined);
  }
}

/** A record file, or null when it is gone (another writer's abort or prune) or torn. */
function readStored(file: string): Stored | null {
  try {
    return JSON.parse(readFileSync(file, 'utf8')) as Stored;
  } catch {
    return null;
  }
}
