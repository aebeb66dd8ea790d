import { spawnSync } from 'node:child_process';
import { RedisChangeFeed } from '../../../../src/adapters/outbound/feed/redis-change-feed.js';
import type { EntryChange } from '../../../../src/domain/ports/change-feed.port.js';
import { RecordingLogger } from '../../../support/recording-logger.js';
import { RedisProcess, redisSuite } from '../../../support/redis-cluster.js';
import { changeFeedContract } from './change-feed.contract.js';

const describeWithRedis = redisSuite('test/adapters/outbound/feed/change-feed.redis.test.ts', 'the Redis change feed');

const KEY = '0123456789abcdef';
const change = (name: string): EntryChange => ({ rootKey: KEY, paths: [['src', name]] });
const pause = (ms: number) => new Promise((done) => setTimeout(done, ms));

async function until(what: string, check: () => boolean, timeoutMs = 10_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!check()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await pause(20);
  }
}

describeWithRedis('RedisChangeFeed against a real redis-server', () => {
  let redis: RedisProcess;
  const feeds: RedisChangeFeed[] = [];
  let channels = 0;

  beforeAll(async () => {
    redis = await RedisProcess.start();
  });
  afterEach(async () => {
    await Promise.all(feeds.splice(0).map((feed) => feed.close()));
  });
  afterAll(async () => {
    await redis?.destroy();
  });

  /** A feed listening on `channel` (a fresh one per test unless given), as one replica. */
  async function replica(channel = `mcp-fs-test:changes:${channels}`, logger = new RecordingLogger()): Promise<RedisChangeFeed> {
    const feed = new RedisChangeFeed(redis.url, logger, channel);
    feeds.push(feed);
    await feed.subscribed();
    return feed;
  }

  const publishRaw = (channel: string, message: string) => spawnSync('redis-cli', ['-p', String(redis.port), 'publish', channel, message], { encoding: 'utf8' });

  describe('the change feed contract', () => {
    changeFeedContract(async () => {
      channels += 1;
      return replica();
    });
  });

  it('carries a change to every other replica once, and to the publisher once (its echo is dropped)', async () => {
    channels += 1;
    const [a, b, c] = [await replica(), await replica(), await replica()];
    const told: Record<string, EntryChange[]> = { a: [], b: [], c: [] };
    a.subscribe((received) => told.a.push(received));
    b.subscribe((received) => told.b.push(received));
    c.subscribe((received) => told.c.push(received));
    a.publish(change('a.ts'));
    b.publish(change('b.ts'));
    await until('both changes everywhere', () => told.a.length === 2 && told.b.length === 2 && told.c.length === 2, 1000);
    await pause(200);
    expect(told.a).toEqual([change('a.ts'), change('b.ts')]);
    expect(told.b).toEqual([change('b.ts'), change('a.ts')]);
    expect(told.c).toEqual([change('a.ts'), change('b.ts')]);
  });

  it('keeps deployments on other database numbers apart (the default channel names the database)', async () => {
    const onDb = async (db: number) => {
      const feed = new RedisChangeFeed(redis.url.replace(/\/0$/, `/${db}`), new RecordingLogger());
      feeds.push(feed);
      await feed.subscribed();
      return feed;
    };
    const [here, sameDb, otherDb] = [await onDb(2), await onDb(2), await onDb(3)];
    const [toldSame, toldOther]: EntryChange[][] = [[], []];
    sameDb.subscribe((received) => toldSame.push(received));
    otherDb.subscribe((received) => toldOther.push(received));
    here.publish(change('a.ts'));
    await until('the change on the same database', () => toldSame.length > 0, 1000);
    await pause(200);
    expect(toldSame).toEqual([change('a.ts')]);
    expect(toldOther).toEqual([]);
  });

  it('Security: ignores what is not a change (a host path, .., a bad key, not JSON, too long), with one WARN and no echo of it', async () => {
    const channel = 'mcp-fs-test:foreign';
    const logger = new RecordingLogger();
    const feed = await replica(channel, logger);
    const told: EntryChange[] = [];
    feed.subscribe((received) => told.push(received));
    for (const message of [
      JSON.stringify({ origin: 'x', rootKey: KEY, paths: [['/etc/passwd']] }),
      JSON.stringify({ origin: 'x', rootKey: KEY, paths: [['..', '..', 'etc', 'passwd']] }),
      JSON.stringify({ origin: 'x', rootKey: '/srv/workspace', paths: [['a.txt']] }),
      JSON.stringify({ origin: 'x', rootKey: KEY, paths: [['a'.repeat(70_000)]] }),
      'not json',
    ]) {
      publishRaw(channel, message);
    }
    publishRaw(channel, JSON.stringify({ origin: 'another replica', rootKey: KEY, paths: [['src', 'ok.ts']] }));
    await until('the valid change', () => told.length > 0, 2000);
    await pause(100);
    expect(told).toEqual([change('ok.ts')]);
    const warnings = logger.entries.filter((entry) => entry.level === 'warn');
    expect(warnings).toEqual([{ level: 'warn', message: 'change feed: a message that is not a change was ignored', fields: { channel } }]);
    expect(JSON.stringify(logger.entries)).not.toContain('passwd');
  });

  it('while Redis is down a publish never throws and this replica still hears it; once back, changes cross again', async () => {
    channels += 1;
    const logger = new RecordingLogger();
    const [a, b] = [await replica(undefined, logger), await replica()];
    const [toldA, toldB]: EntryChange[][] = [[], []];
    a.subscribe((received) => toldA.push(received));
    b.subscribe((received) => toldB.push(received));
    await redis.stop();
    await pause(100);
    expect(() => a.publish(change('while-down.ts'))).not.toThrow();
    expect(toldA).toEqual([change('while-down.ts')]);
    await until('a WARN', () => logger.entries.some((entry) => entry.level === 'warn' && entry.message.startsWith('change feed unreachable')));
    await redis.restart();
    // Subscribed again on the new connection: a change published now reaches the other replica.
    await until('the change to cross after the restart', () => {
      a.publish(change('after.ts'));
      return toldB.some((received) => received.paths[0][1] === 'after.ts');
    }, 15_000);
    expect(toldB.some((received) => received.paths[0][1] === 'while-down.ts')).toBe(false);
    expect(logger.withMessage('change feed reachable again')).toHaveLength(1);
  }, 30_000);
});
