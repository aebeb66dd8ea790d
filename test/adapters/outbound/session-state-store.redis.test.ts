import { spawnSync } from 'node:child_process';
import { RedisSessionState } from '../../../src/adapters/outbound/redis-session-state.js';
import { SessionStoreUnavailable } from '../../../src/adapters/shared/session-state-store.port.js';
import { defaultSessionLimits } from '../../../src/config/schema.js';
import { RecordingLogger } from '../../support/recording-logger.js';
import { RedisProcess, redisSuite } from '../../support/redis-cluster.js';
import { CONTRACT_IDLE_MS, sessionStateStoreContract } from './session-state-store.contract.js';

const describeWithRedis = redisSuite('test/adapters/outbound/session-state-store.redis.test.ts', 'the Redis session store');

describeWithRedis('RedisSessionState against a real redis-server', () => {
  let redis: RedisProcess;
  const stores: RedisSessionState[] = [];
  beforeAll(async () => {
    redis = await RedisProcess.start();
  });
  afterEach(async () => {
    await Promise.all(stores.splice(0).map((store) => store.disconnect()));
  });
  afterAll(async () => {
    await redis?.destroy();
  });

  const redisCli = (...args: string[]) => spawnSync('redis-cli', ['-p', String(redis.port), ...args], { encoding: 'utf8' }).stdout.trim();

  async function connected(store: RedisSessionState): Promise<RedisSessionState> {
    const deadline = Date.now() + 5000;
    while (!store.reachable() && Date.now() < deadline) await new Promise((done) => setTimeout(done, 20));
    return store;
  }

  describe('the session store contract', () => {
    sessionStateStoreContract(async (limits) => {
      redisCli('flushdb');
      return connected(new RedisSessionState(redis.url, limits, new RecordingLogger()));
    });
  });

  it('every key of a session carries the idle timeout as its TTL', async () => {
    redisCli('flushdb');
    const store = await connected(new RedisSessionState(redis.url, { ...defaultSessionLimits(), idleTimeoutMs: 60_000 }, new RecordingLogger()));
    stores.push(store);
    await store.open('s1', 'alice');
    await store.setWorkingDirectory('s1', '/workspace/src');
    await store.recordFingerprint('s1', '/workspace/a.txt', { size: 1, modifiedAtMs: 1 });
    for (const key of ['mcp-fs:session:s1', 'mcp-fs:files:s1']) {
      const ttl = Number(redisCli('pttl', key));
      expect(ttl).toBeGreaterThan(50_000);
      expect(ttl).toBeLessThanOrEqual(60_000);
    }
    await store.disconnect();
  });

  it('while Redis is down: SessionStoreUnavailable, unreachable, one WARN; it recovers by itself', async () => {
    const logger = new RecordingLogger();
    const store = await connected(new RedisSessionState(redis.url, { ...defaultSessionLimits(), idleTimeoutMs: CONTRACT_IDLE_MS * 100 }, logger));
    stores.push(store);
    await store.open('down-1', 'alice');
    await redis.stop({ save: true });
    await expect(store.touch('down-1')).rejects.toBeInstanceOf(SessionStoreUnavailable);
    await expect(store.workingDirectory('down-1')).rejects.toBeInstanceOf(SessionStoreUnavailable);
    expect(store.reachable()).toBe(false);
    expect(logger.entries.filter((entry) => entry.level === 'warn' && entry.message === 'session store unreachable')).toHaveLength(1);

    await redis.restart();
    await connected(store);
    expect(store.reachable()).toBe(true);
    expect(await store.touch('down-1')).toEqual({ principal: 'alice' });
    expect(logger.withMessage('session store reachable again')).toHaveLength(1);
    await store.disconnect();
  });
});
