import { randomBytes } from 'node:crypto';
import { mkdirSync } from 'node:fs';
import { readdir, rm, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { Redis, ReplyError } from 'ioredis';
import { CHANGE_ID, ChangeIds } from '../../../domain/changes/change-id.js';
import { imageBytes, matchesQuery } from '../../../domain/changes/change-query.js';
import type { BeforeImage, ChangeDraft, ChangeJournal, ChangeQuery, ChangeRecord, EntryState } from '../../../domain/ports/change-journal.port.js';
import type { Clock } from '../../../domain/ports/clock.port.js';
import type { Logger } from '../../../domain/ports/logger.port.js';
import { checkPrivate } from '../node-fs/in-flight.js';
import { readImageFile, syncPath, writeImageFile } from './image-files.js';
import { JournalStoreUnavailable } from './journal-store-unavailable.js';
import { BEGIN_SCRIPT, CLAIM_SCRIPT, COMMIT_SCRIPT, DROP_IMAGE_SCRIPT, REMOVE_SCRIPT } from './redis-journal-scripts.js';

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
 * Pending records of a server that is gone: each server keeps a heartbeat key with a short TTL and
 * marks its pending records with its instance id; a record whose owner's heartbeat expired is
 * recovery's. Not pid + host: replicas run on other hosts (no pid to probe) and in containers,
 * where every server may be pid 1; Redis's own clock times the heartbeat, so clock skew between
 * replicas does not matter.
 */
export class RedisChangeJournal implements ChangeJournal {
  private readonly redis: Redis;
  private readonly ids = new ChangeIds();
  private readonly images: string;
  private readonly prefix: string;
  private readonly ttlMs: number;
  private readonly heartbeatMs: number;
  private readonly instance = randomBytes(6).toString('hex');
  private readonly timer: NodeJS.Timeout;
  private ready?: Promise<void>;
  private reachable = true;

  constructor(
    options: RedisJournalOptions,
    private readonly clock: Clock,
    private readonly logger?: Logger,
  ) {
    // Security: images steer what an undo writes into a root; only this user may write them.
    checkPrivate(options.dir, 'journal directory');
    this.images = join(options.dir, 'images');
    for (const sub of [options.dir, this.images]) mkdirSync(sub, { recursive: true, mode: 0o700 });
    this.prefix = options.keyPrefix;
    this.ttlMs = options.retentionMs;
    this.heartbeatMs = options.heartbeatMs ?? HEARTBEAT_MS;
    this.redis = new Redis(options.url, {
      // Queued while connecting (start-up recovery runs at once), but never longer than the timeout.
      maxRetriesPerRequest: 1,
      connectTimeout: 2000,
      commandTimeout: 5000,
      retryStrategy: (attempt) => Math.min(attempt * 200, 2000),
    });
    // Without a listener ioredis reports every failed reconnect as an unhandled 'error' event.
    this.redis.on('error', (error: Error) => this.unreachable(error.message));
    this.redis.on('ready', () => {
      if (!this.reachable) this.logger?.info('journal store reachable again');
      this.reachable = true;
    });
    this.timer = setInterval(() => void this.beat().catch(() => undefined), Math.max(1, Math.floor(this.heartbeatMs / 3)));
    this.timer.unref();
  }

  async begin(draft: ChangeDraft, image: BeforeImage | null): Promise<string> {
    await this.started();
    const now = this.clock.now();
    const id = this.ids.next(now);
    const record: ChangeRecord = { ...draft, id, time: now.toISOString() };
    const bytes = image === null ? 0 : imageBytes(image.entries);
    await this.call(() =>
      // Scored by the id's own millisecond (never before the clock's): the afterId bound of list() is exact.
      this.redis.eval(BEGIN_SCRIPT, 0, this.prefix, id, JSON.stringify(record), this.instance, bytes, this.ttlMs, idMillis(id), draft.principal),
    );
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
    await this.call(() => this.redis.eval(COMMIT_SCRIPT, 0, this.prefix, id, ...given, this.ttlMs));
  }

  async abort(id: string): Promise<void> {
    if (!CHANGE_ID.test(id)) return;
    await rm(this.imageFile(id), { force: true });
    await this.call(() => this.redis.eval(REMOVE_SCRIPT, 0, this.prefix, id));
  }

  /** Start-up recovery's: pending records whose owner's heartbeat is gone; also clears images Redis no longer knows. */
  async pending(): Promise<ChangeRecord[]> {
    await this.started();
    await this.sweepImages();
    const ids = await this.call(() => this.redis.zrange(this.key('pending'), 0, -1));
    const stored = await this.read(ids);
    const orphaned: ChangeRecord[] = [];
    for (const [index, fields] of stored.entries()) {
      if (fields.record === undefined) await this.abort(ids[index]);
      else if (fields.state === 'pending' && fields.owner !== this.instance && !(await this.alive(fields.owner))) orphaned.push(recordOf(fields));
    }
    return orphaned;
  }

  async list(query: ChangeQuery): Promise<ChangeRecord[]> {
    const index = query.principal === undefined ? this.key('all') : this.key(`principal:${query.principal}`);
    // Scores are the ids' milliseconds: nothing after afterId scores below its millisecond.
    const oldest = query.afterId !== undefined && CHANGE_ID.test(query.afterId) ? idMillis(query.afterId) : '-inf';
    const found: ChangeRecord[] = [];
    // A change committed meanwhile shifts the pages by one (a record would come twice): seen drops it.
    const seen = new Set<string>();
    // The first page is the limit (no filter but the index: one page answers); later ones are larger.
    let page = Math.min(PAGE, Math.max(query.limit ?? PAGE, 16));
    for (let offset = 0; query.limit === undefined || found.length < query.limit; offset += page, page = PAGE) {
      const ids = await this.call(() => this.redis.zrevrangebyscore(index, '+inf', oldest, 'LIMIT', offset, page));
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

  async claimUndo(id: string, undoId: string): Promise<boolean> {
    if (!CHANGE_ID.test(id)) return false;
    return (await this.call(() => this.redis.eval(CLAIM_SCRIPT, 0, this.prefix, id, undoId))) === 1;
  }

  async releaseUndo(id: string): Promise<void> {
    if (CHANGE_ID.test(id)) await this.call(() => this.redis.hdel(this.key(`record:${id}`), 'undoneBy'));
  }

  async dropImage(id: string, reason: string): Promise<void> {
    if (!CHANGE_ID.test(id)) return;
    await this.call(() => this.redis.eval(DROP_IMAGE_SCRIPT, 0, this.prefix, id, reason));
    await rm(this.imageFile(id), { force: true });
  }

  /** Reads only the records past the retention (by the index's time order), never the rest. */
  async prune(before: Date): Promise<number> {
    let removed = 0;
    for (;;) {
      const ids = await this.call(() => this.redis.zrangebyscore(this.key('all'), '-inf', `(${before.getTime()}`, 'LIMIT', 0, PAGE));
      for (const id of ids) removed += await this.remove(id);
      if (ids.length < PAGE) return removed;
    }
  }

  async usage(): Promise<{ bytes: number; records: number }> {
    const [bytes, records] = await this.call(() => this.redis.mget(this.key('bytes'), this.key('records')));
    return { bytes: Math.max(0, Number(bytes ?? 0)), records: Math.max(0, Number(records ?? 0)) };
  }

  async oldestWithImage(limit: number): Promise<string[]> {
    return this.call(() => this.redis.zrange(this.key('images'), 0, limit - 1));
  }

  /** A graceful stop: the heartbeat goes at once, so another replica may recover what is left pending. */
  async close(): Promise<void> {
    clearInterval(this.timer);
    await this.redis.del(this.key(`owner:${this.instance}`)).catch(() => undefined);
    this.redis.disconnect();
  }

  /** What a killed server leaves: the connection drops, the heartbeat expires by itself. */
  disconnect(): void {
    clearInterval(this.timer);
    this.redis.disconnect();
  }

  private async remove(id: string): Promise<number> {
    await rm(this.imageFile(id), { force: true });
    return Number(await this.call(() => this.redis.eval(REMOVE_SCRIPT, 0, this.prefix, id)));
  }

  /** The first beat, and the newest id another server minted (ids minted here sort after it). */
  private started(): Promise<void> {
    this.ready ??= (async () => {
      await this.beat();
      const last = await this.call(() => this.redis.get(this.key('last')));
      if (last !== null && CHANGE_ID.test(last)) this.ids.observe(last);
    })().catch((error: unknown) => {
      this.ready = undefined;
      throw error;
    });
    return this.ready;
  }

  private async beat(): Promise<void> {
    await this.call(() => this.redis.set(this.key(`owner:${this.instance}`), '1', 'PX', this.heartbeatMs));
  }

  private async alive(owner: string | undefined): Promise<boolean> {
    return owner !== undefined && (await this.call(() => this.redis.exists(this.key(`owner:${owner}`)))) === 1;
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
      const entries = await this.call(() => this.redis.hmget(this.key('ids'), ...batch.map((name) => name.slice(0, -4))));
      for (const [index, entry] of entries.entries()) {
        if (entry === null || entry.startsWith('0 ')) await rm(join(this.images, batch[index]), { force: true });
      }
    }
  }

  private async read(ids: readonly string[]): Promise<Record<string, string>[]> {
    if (ids.length === 0) return [];
    const pipeline = this.redis.pipeline();
    for (const id of ids) pipeline.hgetall(this.key(`record:${id}`));
    const replies = (await this.call(() => pipeline.exec())) ?? [];
    return replies.map(([error, fields]) => {
      if (error) throw error;
      return fields as Record<string, string>;
    });
  }

  private key(name: string): string {
    return `${this.prefix}${name}`;
  }

  private imageFile(id: string): string {
    return join(this.images, `${id}.img`);
  }

  private async call<T>(command: () => Promise<T>): Promise<T> {
    try {
      return await command();
    } catch (error) {
      // Redis answered, with an error: not an outage.
      if (error instanceof (ReplyError as new () => Error)) throw error;
      const reason = error instanceof Error ? error.message : String(error);
      this.unreachable(reason);
      throw new JournalStoreUnavailable(reason);
    }
  }

  /** One WARN per outage, not one per failed command or heartbeat. */
  private unreachable(reason: string): void {
    if (this.reachable) this.logger?.warn('journal store unreachable', { error: reason });
    this.reachable = false;
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
