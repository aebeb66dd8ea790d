import { mkdirSync } from 'node:fs';
import { readdir, rm, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { CHANGE_ID, ChangeIds } from '../../../domain/changes/change-id.js';
import { imageBytes, matchesQuery } from '../../../domain/changes/change-query.js';
import type { BeforeImage, ChangeDraft, ChangeJournal, ChangeQuery, ChangeRecord, EntryState, UndoInFlight } from '../../../domain/ports/change-journal.port.js';
import type { Clock } from '../../../domain/ports/clock.port.js';
import type { Logger } from '../../../domain/ports/logger.port.js';
import { checkPrivate } from '../node-fs/in-flight.js';
import { readImageFile, syncPath, writeImageFile } from './image-files.js';
import { RedisJournalConnection } from './redis-journal-connection.js';
import { ADOPT_SCRIPT, BEGIN_SCRIPT, CLAIM_SCRIPT, COMMIT_SCRIPT, DROP_IMAGE_SCRIPT, FINISH_SCRIPT, RELEASE_SCRIPT, REMOVE_SCRIPT } from './redis-journal-scripts.js';

export interface RedisJournalOptions {
  readonly url: string;
  /** journal.dir: the before-images, shared by every replica serving the same roots. */
  readonly dir: string;
  /** journal.redis_key_prefix: two deployments on one Redis use two prefixes. */
  readonly keyPrefix: string;
  /** journal.retention_hours, in ms: every key expires with it. */
  readonly retentionMs: number;
  /** How long a server's heartbeat outlives its last beat (it beats three times as often). */
  readonly heartbeatMs?: number;
}

const HEARTBEAT_MS = 30_000;
/** Records read from Redis per round trip when listing. */
const PAGE = 200;

/**
 * The journal's record index in Redis (issue 20 §3), for replicas behind one load balancer: any of
 * them lists, undoes and recovers any change. Records, indexes and running totals live in Redis
 * (key layout in redis-journal-scripts.ts); before-images stay files in journal.dir, which the
 * replicas share with the roots. begin() returns only once the pending record is in Redis and the
 * image is fsync'd, before the change is made; an image is written after its record and removed
 * before it, so an image never outlives its record (start-up removes one that does, once past the
 * retention: Redis lost or expired its record).
 *
 * Pending records of a server that is gone are recovery's (see RedisJournalConnection's heartbeat).
 */
export class RedisChangeJournal implements ChangeJournal {
  private readonly store: RedisJournalConnection;
  private readonly ids = new ChangeIds();
  private readonly images: string;
  private readonly ttlMs: number;
  private ready?: Promise<void>;

  constructor(
    options: RedisJournalOptions,
    private readonly clock: Clock,
    logger?: Logger,
  ) {
    // Security: images steer what an undo writes into a root; only this user may write them.
    checkPrivate(options.dir, 'journal directory');
    this.images = join(options.dir, 'images');
    for (const sub of [options.dir, this.images]) mkdirSync(sub, { recursive: true, mode: 0o700 });
    this.ttlMs = options.retentionMs;
    this.store = new RedisJournalConnection(options.url, options.keyPrefix, options.heartbeatMs ?? HEARTBEAT_MS, logger);
  }

  async begin(draft: ChangeDraft, image: BeforeImage | null): Promise<string> {
    await this.started();
    const now = this.clock.now();
    const id = this.ids.next(now);
    const record: ChangeRecord = { ...draft, id, time: now.toISOString() };
    const bytes = image === null ? 0 : imageBytes(image.entries);
    // Scored by the id's own millisecond (never before the clock's): the afterId bound of list() is exact.
    await this.store.script(BEGIN_SCRIPT, id, JSON.stringify(record), this.store.instance, bytes, this.ttlMs, idMillis(id), draft.principal);
    try {
      if (image !== null) {
        await writeImageFile(this.imageFile(id), image);
        await syncPath(this.images);
      }
    } catch (error) {
      await this.abort(id);
      throw error;
    }
    return id;
  }

  async commit(id: string, after?: EntryState | null): Promise<void> {
    const given = after === undefined ? ['0', ''] : ['1', JSON.stringify(after)];
    await this.store.script(COMMIT_SCRIPT, id, ...given, this.ttlMs);
  }

  async abort(id: string): Promise<void> {
    if (!CHANGE_ID.test(id)) return;
    await rm(this.imageFile(id), { force: true });
    await this.store.script(REMOVE_SCRIPT, id);
  }

  /** Start-up recovery's: pending records whose owner's heartbeat is gone; also clears images Redis no longer knows. */
  async pending(): Promise<ChangeRecord[]> {
    await this.started();
    await this.sweepImages();
    const ids = await this.store.call(() => this.store.redis.zrange(this.store.key('pending'), 0, -1));
    const stored = await this.read(ids);
    const orphaned: ChangeRecord[] = [];
    for (const [index, fields] of stored.entries()) {
      if (fields.record === undefined) await this.abort(ids[index]);
      else if (fields.state === 'pending' && fields.owner !== this.store.instance && !(await this.store.alive(fields.owner))) orphaned.push(recordOf(fields));
    }
    return orphaned;
  }

  async list(query: ChangeQuery): Promise<ChangeRecord[]> {
    const index = query.principal === undefined ? this.store.key('all') : this.store.key(`principal:${query.principal}`);
    // Scores are the ids' milliseconds: nothing after afterId scores below its millisecond.
    const oldest = query.afterId !== undefined && CHANGE_ID.test(query.afterId) ? idMillis(query.afterId) : '-inf';
    // Nothing before beforeId scores above its millisecond (those of its own millisecond are filtered by id).
    const newest = query.beforeId !== undefined && CHANGE_ID.test(query.beforeId) ? idMillis(query.beforeId) : '+inf';
    const found: ChangeRecord[] = [];
    // A change committed meanwhile shifts the pages by one (a record would come twice): seen drops it.
    const seen = new Set<string>();
    // The first page is the limit (no filter but the index: one page answers); later ones are larger.
    let page = Math.min(PAGE, Math.max(query.limit ?? PAGE, 16));
    for (let offset = 0; query.limit === undefined || found.length < query.limit; offset += page, page = PAGE) {
      const ids = await this.store.call(() => this.store.redis.zrevrangebyscore(index, newest, oldest, 'LIMIT', offset, page));
      for (const fields of await this.read(ids)) {
        if (fields.state !== 'committed') continue;
        const record = recordOf(fields);
        if (!seen.has(record.id) && matchesQuery(record, query)) found.push(record);
        seen.add(record.id);
      }
      if (ids.length < page) break;
    }
    return query.limit === undefined ? found : found.slice(0, query.limit);
  }

  async get(id: string): Promise<ChangeRecord | null> {
    if (!CHANGE_ID.test(id)) return null;
    const [fields] = await this.read([id]);
    return fields.state === 'committed' ? recordOf(fields) : null;
  }

  async image(id: string): Promise<BeforeImage | null> {
    return CHANGE_ID.test(id) ? readImageFile(this.imageFile(id)) : null;
  }

  async claimUndo(id: string, undoId: string, force = false): Promise<boolean> {
    if (!CHANGE_ID.test(id)) return false;
    await this.started();
    const claim = JSON.stringify({ undoId, force, owner: this.store.instance });
    return (await this.store.script(CLAIM_SCRIPT, id, claim, this.store.instance, this.ttlMs)) === 1;
  }

  async finishUndo(id: string): Promise<void> {
    if (CHANGE_ID.test(id)) await this.store.script(FINISH_SCRIPT, id);
  }

  async releaseUndo(id: string): Promise<void> {
    if (CHANGE_ID.test(id)) await this.store.script(RELEASE_SCRIPT, id);
  }

  /** Claims whose owner's heartbeat is gone. */
  async undosInFlight(): Promise<UndoInFlight[]> {
    await this.started();
    const owners = await this.store.call(() => this.store.redis.hgetall(this.store.key('claims')));
    const found: UndoInFlight[] = [];
    for (const [id, owner] of Object.entries(owners)) {
      if (owner === this.store.instance || (await this.store.alive(owner))) continue;
      const claim = await this.claimOf(id);
      if (claim === null) await this.store.call(() => this.store.redis.hdel(this.store.key('claims'), id));
      else found.push({ id, undoId: claim.undoId, force: claim.force });
    }
    return found;
  }

  async adoptUndo(id: string): Promise<boolean> {
    const claim = CHANGE_ID.test(id) ? await this.claimOf(id) : null;
    if (claim === null) return false;
    const mine = JSON.stringify({ ...claim, owner: this.store.instance });
    return (await this.store.script(ADOPT_SCRIPT, id, claim.owner, this.store.instance, mine)) === 1;
  }

  private async claimOf(id: string): Promise<{ undoId: string; force: boolean; owner: string } | null> {
    const text = await this.store.call(() => this.store.redis.hget(this.store.key(`record:${id}`), 'claim'));
    return text === null ? null : (JSON.parse(text) as { undoId: string; force: boolean; owner: string });
  }

  async dropImage(id: string, reason: string): Promise<void> {
    if (!CHANGE_ID.test(id)) return;
    await this.store.script(DROP_IMAGE_SCRIPT, id, reason);
    await rm(this.imageFile(id), { force: true });
  }

  /** Reads only the records past the retention (by the index's time order), never the rest. */
  async prune(before: Date): Promise<number> {
    let removed = 0;
    for (;;) {
      const ids = await this.store.call(() => this.store.redis.zrangebyscore(this.store.key('all'), '-inf', `(${before.getTime()}`, 'LIMIT', 0, PAGE));
      for (const id of ids) removed += await this.remove(id);
      if (ids.length < PAGE) return removed;
    }
  }

  async usage(): Promise<{ bytes: number; records: number }> {
    const [bytes, records] = await this.store.call(() => this.store.redis.mget(this.store.key('bytes'), this.store.key('records')));
    return { bytes: Math.max(0, Number(bytes ?? 0)), records: Math.max(0, Number(records ?? 0)) };
  }

  async oldestWithImage(limit: number): Promise<string[]> {
    return this.store.call(() => this.store.redis.zrange(this.store.key('images'), 0, limit - 1));
  }

  async oldest(limit: number): Promise<string[]> {
    return this.store.call(() => this.store.redis.zrange(this.store.key('all'), 0, limit - 1));
  }

  async forget(id: string): Promise<void> {
    if (CHANGE_ID.test(id) && (await this.get(id)) !== null) await this.remove(id);
  }

  close(): Promise<void> {
    return this.store.close();
  }

  disconnect(): void {
    this.store.disconnect();
  }

  private async remove(id: string): Promise<number> {
    await rm(this.imageFile(id), { force: true });
    return Number(await this.store.script(REMOVE_SCRIPT, id));
  }

  /** The first beat, and the newest id another server minted (ids minted here sort after it). */
  private started(): Promise<void> {
    this.ready ??= (async () => {
      await this.store.beat();
      const last = await this.store.call(() => this.store.redis.get(this.store.key('last')));
      if (last !== null && CHANGE_ID.test(last)) this.ids.observe(last);
    })().catch((error: unknown) => {
      this.ready = undefined;
      throw error;
    });
    return this.ready;
  }

  /**
   * An image file past the retention whose record Redis does not hold (lost with Redis's data,
   * expired, or its image dropped) is litter. Only past the retention: a younger one may belong to
   * another deployment sharing this journal.dir through another Redis (its records are not here).
   */
  private async sweepImages(): Promise<void> {
    const cutoff = Date.now() - this.ttlMs;
    const names: string[] = [];
    for (const name of await readdir(this.images)) {
      if (!name.endsWith('.img') || !CHANGE_ID.test(name.slice(0, -4))) continue;
      const modified = await stat(join(this.images, name)).then((stats) => stats.mtimeMs, () => Number.POSITIVE_INFINITY);
      if (modified < cutoff) names.push(name);
    }
    for (let start = 0; start < names.length; start += PAGE) {
      const batch = names.slice(start, start + PAGE);
      const entries = await this.store.call(() => this.store.redis.hmget(this.store.key('ids'), ...batch.map((name) => name.slice(0, -4))));
      for (const [index, entry] of entries.entries()) {
        if (entry === null || entry.startsWith('0 ')) await rm(join(this.images, batch[index]), { force: true });
      }
    }
  }

  private async read(ids: readonly string[]): Promise<Record<string, string>[]> {
    if (ids.length === 0) return [];
    const pipeline = this.store.redis.pipeline();
    for (const id of ids) pipeline.hgetall(this.store.key(`record:${id}`));
    const replies = (await this.store.call(() => pipeline.exec())) ?? [];
    return replies.map(([error, fields]) => {
      if (error) throw error;
      return fields as Record<string, string>;
    });
  }

  private imageFile(id: string): string {
    return join(this.images, `${id}.img`);
  }
}

/** The millisecond an id was minted in (its first nine base-36 digits). */
function idMillis(id: string): number {
  return parseInt(id.slice(0, 9), 36);
}

/** A stored record as the domain sees it: the draft, then what commit, eviction and undo added. */
function recordOf(fields: Record<string, string>): ChangeRecord {
  let record = JSON.parse(fields.record) as ChangeRecord;
  if (fields.after !== undefined) record = { ...record, after: JSON.parse(fields.after) as EntryState | null };
  if (fields.dropped !== undefined) record = { ...record, undoable: false, reason: fields.dropped };
  if (fields.undoneBy !== undefined) record = { ...record, undoneBy: fields.undoneBy };
  return record;
}
