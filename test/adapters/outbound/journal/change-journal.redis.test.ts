import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { RedisChangeJournal, type RedisJournalOptions } from '../../../../src/adapters/outbound/journal/redis-change-journal.js';
import type { Clock } from '../../../../src/domain/ports/clock.port.js';
import { RedisProcess, redisSuite } from '../../../support/redis-cluster.js';
import { changeJournalContract, draft, ManualClock } from './change-journal.contract.js';

const describeWithRedis = redisSuite('test/adapters/outbound/journal/change-journal.redis.test.ts', 'the Redis journal store');

const HOUR_MS = 3_600_000;
const PREFIX = 'test:journal:';
const bytes = (text: string) => new TextEncoder().encode(text);
const fileImage = (text: string) => ({ entries: [{ relativePath: '', kind: 'file' as const, mode: 0o644, content: bytes(text) }] });
const sleep = (ms: number) => new Promise((done) => setTimeout(done, ms));

describeWithRedis('RedisChangeJournal against a real redis-server', () => {
  let redis: RedisProcess;
  let base: string;
  const opened: RedisChangeJournal[] = [];
  beforeAll(async () => {
    redis = await RedisProcess.start();
    base = mkdtempSync(join(tmpdir(), 'journal-redis-'));
  });
  afterEach(() => opened.splice(0).forEach((journal) => journal.disconnect()));
  afterAll(async () => {
    await redis?.destroy();
    rmSync(base, { recursive: true, force: true });
  });

  const redisCli = (...args: string[]) => spawnSync('redis-cli', ['-p', String(redis.port), ...args], { encoding: 'utf8' }).stdout.trim();
  const keys = (prefix = PREFIX) => redisCli('--scan', '--pattern', `${prefix}*`).split('\n').filter(Boolean).sort();
  const freshDir = () => join(mkdtempSync(join(base, 'dir-')), 'journal');
  function journalAt(dir: string, clock: Clock, options: Partial<RedisJournalOptions> = {}): RedisChangeJournal {
    const journal = new RedisChangeJournal({ url: redis.url, dir, keyPrefix: PREFIX, retentionMs: HOUR_MS, ...options }, clock);
    opened.push(journal);
    return journal;
  }

  describe('the change journal contract', () => {
    changeJournalContract(async (clock) => {
      redisCli('flushdb');
      const dir = freshDir();
      const journal = journalAt(dir, clock);
      // A restart: the old server is gone (its heartbeat with it), a new one opens the same Redis and directory.
      return { journal, reopen: async () => (await journal.close(), journalAt(dir, clock)) };
    });
  });

  it('gives every key the retention as its TTL (the heartbeat its own), and Redis forgets them after it', async () => {
    redisCli('flushdb');
    const RETENTION_MS = 600_000;
    const journal = journalAt(freshDir(), new ManualClock(), { retentionMs: RETENTION_MS, heartbeatMs: 30_000 });
    const id = await journal.begin(draft(), fileImage('old'));
    await journal.commit(id);
    expect(await journal.claimUndo(id, 'u1')).toBe(true);
    const written = keys();
    expect(written).toEqual(
      expect.arrayContaining([`${PREFIX}record:${id}`, `${PREFIX}ids`, `${PREFIX}all`, `${PREFIX}principal:alice`, `${PREFIX}images`, `${PREFIX}bytes`, `${PREFIX}records`, `${PREFIX}last`]),
    );
    for (const key of written) {
      const ttl = Number(redisCli('pttl', key));
      const [low, high] = key.includes(':owner:') ? [0, 30_000] : [30_000, RETENTION_MS];
      expect([key, ttl > low && ttl <= high]).toEqual([key, true]);
    }

    redisCli('flushdb');
    const brief = journalAt(freshDir(), new ManualClock(), { retentionMs: 2000 });
    await brief.commit(await brief.begin(draft(), fileImage('old')));
    expect(keys().filter((key) => !key.includes(':owner:')).length).toBeGreaterThan(5);
    await sleep(2600);
    expect(keys().filter((key) => !key.includes(':owner:'))).toEqual([]);
    expect(await brief.list({})).toEqual([]);
    expect(await brief.usage()).toEqual({ bytes: 0, records: 0 });
  });

  it('two servers on one Redis: of 40 undos of one change at once, exactly one claims it', async () => {
    redisCli('flushdb');
    const dir = freshDir();
    const [one, two] = [journalAt(dir, new ManualClock()), journalAt(dir, new ManualClock())];
    const id = await one.begin(draft(), null);
    await one.commit(id);
    const claims = await Promise.all(Array.from({ length: 40 }, (_, index) => (index % 2 === 0 ? one : two).claimUndo(id, `u${index}`)));
    expect(claims.filter(Boolean)).toHaveLength(1);
    const winner = `u${claims.indexOf(true)}`;
    expect((await two.get(id))?.undoneBy).toBeUndefined();
    await one.finishUndo(id);
    expect((await two.get(id))?.undoneBy).toBe(winner);
    expect((await one.get(id))?.undoneBy).toBe(winner);
  });

  it("leaves a live server's pending record alone and hands a dead one's to recovery once its heartbeat expires", async () => {
    redisCli('flushdb');
    const dir = freshDir();
    const owner = journalAt(dir, new ManualClock(), { heartbeatMs: 1500 });
    const other = journalAt(dir, new ManualClock());
    const id = await owner.begin(draft(), fileImage('x'));
    expect(await owner.pending()).toEqual([]);
    await sleep(2000); // longer than the heartbeat's TTL: the owner beat meanwhile
    expect(await other.pending()).toEqual([]);
    owner.disconnect(); // a kill -9: nothing is cleaned up
    expect(await other.pending()).toEqual([]);
    await sleep(2000);
    expect((await other.pending()).map((record) => record.id)).toEqual([id]);
    await other.commit(id);
    expect((await other.list({})).map((record) => record.id)).toEqual([id]);
    expect(Buffer.from((await other.image(id))?.entries[0].content ?? []).toString()).toBe('x');
  });

  it('lists across pages of the index (450 changes): every one once, newest first, with a limit, after an id, and by path', async () => {
    redisCli('flushdb');
    const clock = new ManualClock();
    const journal = journalAt(freshDir(), clock);
    const ids: string[] = [];
    for (let index = 0; index < 450; index += 1) {
      if (index % 7 === 0) clock.advance(1);
      const id = await journal.begin(draft({ path: `f${index % 3}.txt` }), null);
      await journal.commit(id);
      ids.push(id);
    }
    const newestFirst = [...ids].reverse();
    expect((await journal.list({ principal: 'alice' })).map((record) => record.id)).toEqual(newestFirst);
    expect((await journal.list({ limit: 250 })).map((record) => record.id)).toEqual(newestFirst.slice(0, 250));
    expect((await journal.list({ afterId: ids[99] })).map((record) => record.id)).toEqual(newestFirst.slice(0, 350));
    // Paging back from inside a millisecond: the score bound is the id's millisecond, the id itself excluded.
    expect((await journal.list({ beforeId: ids[300], limit: 250 })).map((record) => record.id)).toEqual(newestFirst.slice(150, 400));
    expect((await journal.list({ path: 'f1.txt', limit: 200 })).map((record) => record.id)).toEqual(newestFirst.filter((_, index) => (449 - index) % 3 === 1).slice(0, 200));
    expect(await journal.list({ principal: 'bob' })).toEqual([]);
  });

  it('lists after an id minted by a server whose clock is ahead (ids, not clocks, order the changes)', async () => {
    redisCli('flushdb');
    const dir = freshDir();
    const ahead = new ManualClock(Date.parse('2026-01-01T00:00:05Z'));
    const first = await journalAt(dir, ahead).begin(draft(), null);
    const behind = journalAt(dir, new ManualClock(Date.parse('2026-01-01T00:00:00Z')));
    const later = await behind.begin(draft(), null);
    for (const id of [first, later]) await behind.commit(id);
    expect(later > first).toBe(true);
    expect((await behind.list({ afterId: first })).map((record) => record.id)).toEqual([later]);
  });

  it('keeps two deployments on one Redis apart by their key prefix', async () => {
    redisCli('flushdb');
    const one = journalAt(freshDir(), new ManualClock());
    const two = journalAt(freshDir(), new ManualClock(), { keyPrefix: 'other:journal:' });
    const id = await one.begin(draft(), fileImage('abc'));
    await one.commit(id);
    expect(await two.list({})).toEqual([]);
    expect(await two.usage()).toEqual({ bytes: 0, records: 0 });
    expect(await two.oldestWithImage(5)).toEqual([]);
    expect(keys('other:journal:').filter((key) => !key.includes(':owner:'))).toEqual([]);
  });

  it('keeps the totals exact when two servers evict the same image at once, and when a record expired before its prune', async () => {
    redisCli('flushdb');
    const clock = new ManualClock();
    const dir = freshDir();
    const [one, two] = [journalAt(dir, clock), journalAt(dir, clock)];
    const a = await one.begin(draft(), fileImage('aaaa'));
    await one.commit(a);
    clock.advance(1000);
    const b = await one.begin(draft({ principal: 'bob' }), fileImage('bb'));
    await one.commit(b);
    await Promise.all([one.dropImage(a, 'evicted'), two.dropImage(a, 'evicted')]);
    expect(await one.usage()).toEqual({ bytes: 2, records: 2 });
    // Redis expired b's record hash before any server pruned it: its index entry still counts it.
    redisCli('del', `${PREFIX}record:${b}`);
    expect(await two.prune(new Date(clock.now().getTime() + 1))).toBe(2);
    expect(await one.usage()).toEqual({ bytes: 0, records: 0 });
    expect(readdirSync(join(dir, 'images'))).toEqual([]);
  });

  it('at start-up removes before-images past the retention whose records Redis no longer holds (Redis lost its data)', async () => {
    redisCli('flushdb');
    const dir = freshDir();
    const journal = journalAt(dir, new ManualClock());
    const image = (id: string) => join(dir, 'images', `${id}.img`);
    const [kept, lost, young] = [await journal.begin(draft(), fileImage('kept')), await journal.begin(draft(), fileImage('lost')), await journal.begin(draft(), fileImage('young'))];
    for (const id of [kept, lost, young]) await journal.commit(id);
    // lost and young: Redis forgot them; young could be another deployment's, sharing this directory.
    for (const id of [lost, young]) {
      redisCli('del', `${PREFIX}record:${id}`);
      redisCli('hdel', `${PREFIX}ids`, id);
    }
    const old = new Date(Date.now() - 2 * HOUR_MS);
    for (const id of [kept, lost]) utimesSync(image(id), old, old);
    writeFileSync(join(dir, 'images', 'not-an-image.txt'), 'left alone');
    await journalAt(dir, new ManualClock()).pending();
    expect(existsSync(image(lost))).toBe(false);
    expect(readdirSync(join(dir, 'images')).sort()).toEqual([`${kept}.img`, `${young}.img`, 'not-an-image.txt'].sort());
  });

  it('puts no host path in Redis: the images stay in journal.dir', async () => {
    redisCli('flushdb');
    const dir = freshDir();
    const journal = journalAt(dir, new ManualClock());
    const id = await journal.begin(draft(), fileImage('secret content'));
    await journal.commit(id);
    const dump = keys()
      .map((key) => `${key} ${redisCli('type', key) === 'hash' ? redisCli('hgetall', key) : ''}`)
      .join('\n');
    expect(dump).not.toContain(base);
    expect(dump).not.toContain('secret content');
  });
});
