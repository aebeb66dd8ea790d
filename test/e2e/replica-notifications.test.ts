import { mkdir, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { Container } from 'inversify';
import { RedisChangeFeed } from '../../src/adapters/outbound/feed/redis-change-feed.js';
import { InMemoryFileWatcher } from '../../src/adapters/outbound/watch/in-memory-file-watcher.js';
import { TOKENS } from '../../src/composition/tokens.js';
import { success } from '../support/fixtures.js';
import { callTool } from '../support/mcp.js';
import { nextUpdate, sleep, updatesOf } from '../support/notifications.js';
import { freePort, RedisProcess, redisSuite, ReplicaProcess, replicaConfig } from '../support/redis-cluster.js';
import { startTestServer, type TestServer } from '../support/server.js';

/**
 * Issue 18 §4, several replicas: a change made through one replica notifies the subscribers of
 * every replica, through Redis pub/sub (the change feed), not through each replica's inotify.
 */

const describeWithRedis = redisSuite('test/e2e/replica-notifications.test.ts', 'change notifications across replicas through Redis');

const MAIN = join(process.cwd(), 'dist', 'main.js');

describeWithRedis('change notifications across replicas sharing a Redis', () => {
  let redis: RedisProcess;

  beforeAll(async () => {
    redis = await RedisProcess.start();
  });

  afterAll(async () => {
    await redis?.destroy();
  });

  describe('two in-process replicas, B blind to the operating system', () => {
    let a: TestServer;
    let b: TestServer;
    let alone: TestServer;
    let containerB: Container;

    beforeEach(async () => {
      // A: the journal on, so its writes go notifying -> journaling -> Node, as in production.
      a = await startTestServer({ sessionStoreUrl: redis.url, journal: true });
      const root = a.rootPath('workspace');
      await mkdir(join(root, 'src'));
      await writeFile(join(root, 'notes.txt'), 'v1');
      // B and `alone` serve the same directory, but their watcher is the in-memory one, which no
      // change on disk ever reaches: whatever they hear of A's writes came through the change feed.
      const blind = { fileWatcher: (files: ConstructorParameters<typeof InMemoryFileWatcher>[0]) => new InMemoryFileWatcher(files) };
      const sameRoot = [{ name: 'workspace', path: root }];
      b = await startTestServer({ sessionStoreUrl: redis.url, roots: sameRoot, overrides: blind, configure: (built) => (containerB = built) });
      // `alone` shares no Redis: a replica without the feed across replicas.
      alone = await startTestServer({ roots: sameRoot, overrides: blind });
      const feed = containerB.get(TOKENS.ChangeFeed);
      if (feed instanceof RedisChangeFeed) await feed.subscribed();
    });

    afterEach(async () => {
      await b?.stop();
      await alone?.stop();
      await a?.stop();
    });

    it('a write, an added entry, a move and an undo through A reach the subscribers on B within 1 s; nobody else hears', async () => {
      const [writer, subscriber, idle, unsubscribed, isolated] = [await a.connect(), await b.connect(), await b.connect(), await b.connect(), await alone.connect()];
      const updates = updatesOf(subscriber);
      const idleUpdates = updatesOf(idle);
      const unsubscribedUpdates = updatesOf(unsubscribed);
      const isolatedUpdates = updatesOf(isolated);
      await subscriber.subscribeResource({ uri: 'mcpfs://workspace/notes.txt' });
      await subscriber.subscribeResource({ uri: 'mcpfs://workspace/src' });
      await unsubscribed.subscribeResource({ uri: 'mcpfs://workspace/notes.txt' });
      await unsubscribed.unsubscribeResource({ uri: 'mcpfs://workspace/notes.txt' });
      await isolated.subscribeResource({ uri: 'mcpfs://workspace/notes.txt' });

      success(await callTool(writer, 'write_file', { root: 'workspace', path: 'notes.txt', content: 'v2 from A' }));
      expect(await nextUpdate(updates, 0)).toBe('mcpfs://workspace/notes.txt');

      await sleep(300);
      success(await callTool(writer, 'write_file', { root: 'workspace', path: 'src/added.ts', content: 'export {};\n' }));
      expect(await nextUpdate(updates, 1)).toBe('mcpfs://workspace/src');

      await sleep(300);
      success(await callTool(writer, 'move', { source_root: 'workspace', source_path: 'notes.txt', dest_root: 'workspace', dest_path: 'src/notes.txt' }));
      await nextUpdate(updates, 3);
      expect(updates.slice(2).map((update) => update.uri).sort()).toEqual(['mcpfs://workspace/notes.txt', 'mcpfs://workspace/src']);

      // undo_changes writes through the same file system: its changes are published too.
      await sleep(300);
      const { changes } = success(await callTool(writer, 'list_changes', { root: 'workspace', limit: 1 })).structured;
      success(await callTool(writer, 'undo_changes', { ids: [changes[0].id] }));
      await nextUpdate(updates, 5);
      expect(updates.slice(4).map((update) => update.uri).sort()).toEqual(['mcpfs://workspace/notes.txt', 'mcpfs://workspace/src']);

      await sleep(600);
      expect(updates).toHaveLength(6);
      expect(idleUpdates).toEqual([]);
      expect(unsubscribedUpdates).toEqual([]);
      // The control: the same subscription on a replica without the shared feed hears nothing of A's writes.
      expect(isolatedUpdates).toEqual([]);
    });
  });

  describe('spawned replicas: A over HTTP, B over HTTP and C over stdio, from one config', () => {
    let dir: string;
    let root: string;
    let configFile: string;
    let replicas: ReplicaProcess[];
    const clients: Client[] = [];

    beforeAll(async () => {
      ({ dir, root, configFile } = await replicaConfig(redis.url, '{ idle_timeout_seconds: 600 }'));
      await writeFile(join(root, 'notes.txt'), 'v1');
      replicas = await Promise.all([0, 1].map(async () => new ReplicaProcess(await freePort(), configFile)));
      await Promise.all(replicas.map((replica) => replica.start()));
      await Promise.all(replicas.map((replica) => replica.waitUntilReady()));
    });

    afterAll(async () => {
      await Promise.all(clients.map((client) => client.close()));
      await Promise.all((replicas ?? []).map((replica) => replica.kill()));
      if (dir) await rm(dir, { recursive: true, force: true });
    });

    it('a write through A notifies the subscribers on B (HTTP) and C (stdio) within 1 s', async () => {
      const connect = async (transport: StreamableHTTPClientTransport | StdioClientTransport) => {
        const client = new Client({ name: 'replica-notifications', version: '1' });
        await client.connect(transport);
        clients.push(client);
        return client;
      };
      const writer = await connect(new StreamableHTTPClientTransport(new URL(`${replicas[0].baseUrl}/mcp`)));
      const onB = await connect(new StreamableHTTPClientTransport(new URL(`${replicas[1].baseUrl}/mcp`)));
      const onC = await connect(
        new StdioClientTransport({ command: process.execPath, args: [MAIN, '--config', configFile, '--stdio'], env: { PATH: process.env.PATH ?? '', MCP_FS_LOG_LEVEL: 'error' }, stderr: 'pipe' }),
      );
      const [updatesB, updatesC] = [updatesOf(onB), updatesOf(onC)];
      await onB.subscribeResource({ uri: 'mcpfs://workspace/notes.txt' });
      await onC.subscribeResource({ uri: 'mcpfs://workspace/notes.txt' });
      // C's feed subscribes to Redis as it starts; give its connection a moment before the write.
      await sleep(300);
      success(await callTool(writer, 'write_file', { root: 'workspace', path: 'notes.txt', content: 'v2 from A' }));
      expect(await nextUpdate(updatesB, 0)).toBe('mcpfs://workspace/notes.txt');
      expect(await nextUpdate(updatesC, 0)).toBe('mcpfs://workspace/notes.txt');
    });
  });
});
