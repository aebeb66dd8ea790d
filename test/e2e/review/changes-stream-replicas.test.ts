import type { Container } from 'inversify';
import { RedisChangeFeed } from '../../../src/adapters/outbound/feed/redis-change-feed.js';
import { TOKENS } from '../../../src/composition/tokens.js';
import { callTool } from '../../support/mcp.js';
import { RedisProcess, redisSuite } from '../../support/redis-cluster.js';
import { startTestServer, type TestServer } from '../../support/server.js';

// Issue 30 §2: the /changes live stream follows the change feed, so a page open on one replica hears of
// a change made through another replica sharing the Redis.

const describeWithRedis = redisSuite('test/e2e/review/changes-stream-replicas.test.ts', 'the /changes live stream across replicas');

describeWithRedis('/changes/api/events across two replicas sharing a Redis', () => {
  let redis: RedisProcess;
  let a: TestServer;
  let b: TestServer;
  let containerB: Container;

  beforeAll(async () => {
    redis = await RedisProcess.start();
    a = await startTestServer({ sessionStoreUrl: redis.url });
    b = await startTestServer({ sessionStoreUrl: redis.url, roots: [{ name: 'workspace', path: a.rootPath('workspace') }], configure: (built) => (containerB = built) });
    const feed = containerB.get(TOKENS.ChangeFeed);
    if (feed instanceof RedisChangeFeed) await feed.subscribed();
  });
  afterAll(async () => {
    await b?.stop();
    await a?.stop();
    await redis?.destroy();
  });

  it('a change made through replica A arrives on the stream of a page served by replica B', async () => {
    const abort = new AbortController();
    const response = await fetch(`${b.baseUrl}/changes/api/events?since_id=00000000000000000`, { signal: abort.signal });
    const reader = response.body!.pipeThrough(new TextDecoderStream()).getReader();
    await reader.read(); // open
    const client = await a.connect();
    expect((await callTool(client, 'write_file', { root: 'workspace', path: 'from-a.txt', content: 'hello from A\n' })).isError).toBe(false);
    let text = '';
    while (!text.includes('event: changes')) text += (await reader.read()).value ?? '';
    abort.abort();
    expect(JSON.parse(/data: (.*)\n/.exec(text.slice(text.indexOf('event: changes')))![1]).changes).toEqual([expect.objectContaining({ path: 'from-a.txt', tool: 'write_file' })]);
  });
});
