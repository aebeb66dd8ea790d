import { randomBytes } from 'node:crypto';
import { mkdirSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { rename, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { CHANGE_ID, ChangeIds } from '../../../domain/changes/change-id.js';
import { newestFirst } from '../../../domain/changes/change-query.js';
import type { BeforeImage, ChangeDraft, ChangeJournal, ChangeQuery, ChangeRecord, EntryState } from '../../../domain/ports/change-journal.port.js';
import type { Clock } from '../../../domain/ports/clock.port.js';
import { alive, checkPrivate } from '../node-fs/in-flight.js';
import { imageFileSize, readImageFile, syncDirectory, writeImageFile, writeSynced } from './image-files.js';

interface Stored {
  readonly state: 'pending' | 'committed';
  record: ChangeRecord;
  /** Who began it: a pending record of a live process (another server on this journal) is its business, not recovery's. */
  readonly owner?: { readonly pid: number; readonly instance: string };
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
 * Order makes it crash-safe: the pending record, then the image, each fsync'd, then one fsync of the
 * directory, all before the change is made (the caller waits for begin); abort removes the image
 * before the record, so an image never outlives its record. A commit is not synced to the directory:
 * lost in a crash, it leaves the pending record, which recovery commits by what the root holds. Pending
 * records of a process that is gone are left for the domain's recovery, which commits or aborts each
 * by what the roots hold. The records are indexed in memory and read again when the records
 * directory changed (another server on the same journal wrote one).
 */
export class DiskChangeJournal implements ChangeJournal {
  private readonly held = new Map<string, Held>();
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
    const owner = { pid: process.pid, instance: this.instance };
    this.held.set(id, { record, committed: false, imageBytes: 0, owner });
    try {
      // Never torn: a kill -9 inside begin leaves no record or a whole one (the change is not made yet).
      await this.writeRecord({ state: 'pending', record, owner }, false);
      if (image !== null) this.held.get(id)!.imageBytes = await writeImageFile(this.imageFile(id), image);
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
    if (after !== undefined) held.record = { ...held.record, after };
    held.committed = true;
    await this.writeRecord({ state: 'committed', record: held.record }, false);
  }

  async abort(id: string): Promise<void> {
    this.held.delete(id);
    await rm(this.imageFile(id), { force: true });
    await rm(this.recordFile(id), { force: true });
    await rm(join(this.claims, id), { force: true });
  }

  /** Pending records begun by another instance whose process is gone (or is this one: a reopened journal). */
  async pending(): Promise<ChangeRecord[]> {
    this.refresh();
    return [...this.held.values()]
      .filter((held) => !held.committed && held.owner?.instance !== this.instance && !(held.owner && held.owner.pid !== process.pid && alive(held.owner.pid)))
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
      await writeSynced(join(this.claims, id), Buffer.from(undoId), 'wx');
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
    held.imageBytes = 0;
    await this.writeRecord({ state: held.committed ? 'committed' : 'pending', record: held.record });
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
    let bytes = 0;
    for (const held of this.held.values()) bytes += held.imageBytes;
    return { bytes, records: this.held.size };
  }

  async oldestWithImage(limit: number): Promise<string[]> {
    return [...this.held.values()]
      .filter((held) => held.committed && held.imageBytes > 0)
      .map((held) => held.record.id)
      .sort()
      .slice(0, limit);
  }

  private *committed(): Iterable<ChangeRecord> {
    for (const held of this.held.values()) if (held.committed) yield held.record;
  }

  private recordFile(id: string): string {
    return join(this.records, `${id}.json`);
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

  /** Start-up: reads every record; a temp of an interrupted record write and an image with no record are litter. */
  private load(): void {
    this.refresh();
    for (const name of readdirSync(this.records)) {
      if (name.startsWith('.') && name.endsWith('.tmp')) rmSync(join(this.records, name), { force: true });
    }
    for (const name of readdirSync(this.records)) {
      if (name.endsWith('.img') && !this.held.has(name.slice(0, -'.img'.length))) rmSync(join(this.records, name), { force: true });
    }
  }

  /** Reads the records again when another writer changed the directory since the last read. */
  private refresh(): void {
    const mtime = statSync(this.records).mtimeMs;
    if (mtime === this.seen) return;
    this.seen = mtime;
    const known = new Set<string>();
    for (const name of readdirSync(this.records)) {
      const id = name.slice(0, -'.json'.length);
      if (!name.endsWith('.json') || !CHANGE_ID.test(id)) continue;
      known.add(id);
      try {
        const stored = JSON.parse(readFileSync(join(this.records, name), 'utf8')) as Stored;
        this.ids.observe(id);
        const mine = this.held.get(id);
        // A claim this server made is on disk (claims/) before its record is rewritten: keep it.
        if (mine?.record.undoneBy !== undefined && stored.record.undoneBy === undefined) stored.record = { ...stored.record, undoneBy: mine.record.undoneBy };
        const imageBytes = mine && mine.imageBytes > 0 ? mine.imageBytes : imageFileSize(this.imageFile(id));
        this.held.set(id, { record: stored.record, committed: stored.state === 'committed', imageBytes, owner: stored.owner });
      } catch {
        // Removed meanwhile by another writer's abort or prune.
      }
    }
    for (const id of this.held.keys()) if (!known.has(id)) this.held.delete(id);
  }
}
