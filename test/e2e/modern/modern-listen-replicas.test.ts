import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { Client as ModernClient } from '@modelcontextprotocol/client';
import { modernHttpClient } from '../../support/modern-calls.js';
import type { Container } from 'inversify';
import { RedisChangeFeed } from '../../../src/adapters/outbound/feed/redis-change-feed.js';
import { InMemoryFileWatcher } from '../../../src/adapters/outbound/watch/in-memory-file-watcher.js';
import { TOKENS } from '../../../src/composition/tokens.js';
import { RedisProcess, redisSuite } from '../../support/redis-cluster.js';
import { startTestServer, type TestServer } from '../../support/server.js';

// Issue 29 §3: a modern listener on replica B hears a write made through replica A, through the
// Redis change feed (B's watcher is blind to the disk, so nothing else can tell it).
const describeWithRedis = redisSuite('test/e2e/modern/modern-listen-replicas.test.ts', 'subscriptions/listen across replicas through Redis');

const modernClient = (url: string) => modernHttpClient(url, undefined, 'modern-replicas');

describeWithRedis('subscriptions/listen on two replicas sharing a Redis', () => {
  let redis: RedisProcess;
  let a: TestServer;
  let b: TestServer;
  let containerB: Container;
  const clients: ModernClient[] = [];

  beforeAll(async () => {
    redis = await RedisProcess.start();
    a = await startTestServer({ sessionStoreUrl: redis.url });
    const root = a.rootPath('workspace');
    await writeFile(join(root, 'notes.txt'), 'v1');
    const blind = { fileWatcher: (files: ConstructorParameters<typeof InMemoryFileWatcher>[0]) => new InMemoryFileWatcher(files) };
    b = await startTestServer({ sessionStoreUrl: redis.url, roots: [{ name: 'workspace', path: root }], overrides: blind, configure: (built) => (containerB = built) });
    const feed = containerB.get(TOKENS.ChangeFeed);
    if (feed instanceof RedisChangeFeed) await feed.subscribed();
  });

  afterAll(async () => {
    for (const client of clients) await client.close().catch(() => undefined);
    await b?.stop();
    await a?.stop();
    await redis?.destroy();
  });

  it('a write_file through A reaches the listen stream open on B; a file outside its filter does not', async () => {
    const [writer, listener] = [await modernClient(a.url), await modernClient(b.url)];
    clients.push(writer, listener);
    const uris: string[] = [];
    listener.setNotificationHandler('notifications/resources/updated', (note) => {
      uris.push(note.params.uri);
    });
    const subscription = await listener.listen({ resourceSubscriptions: ['mcpfs://workspace/notes.txt'] });
    await writer.callTool({ name: 'write_file', arguments: { root: 'workspace', path: 'other.txt', content: 'not listened to' } });
    const written = await writer.callTool({ name: 'write_file', arguments: { root: 'workspace', path: 'notes.txt', content: 'v2 from A' } });
    expect(written.isError).not.toBe(true);
    const end = Date.now() + 2000;
    while (uris.length === 0 && Date.now() < end) await new Promise((resolve) => setTimeout(resolve, 25));
    await new Promise((resolve) => setTimeout(resolve, 400));
    expect(uris).toEqual(['mcpfs://workspace/notes.txt']);
    await subscription.close();
  }, 30_000);
});
