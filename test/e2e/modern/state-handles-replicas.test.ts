import { readFile, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { Client as ModernClient, StreamableHTTPClientTransport as ModernHttpTransport } from '@modelcontextprotocol/client';
import { handleOf, modernCall } from '../../support/modern-calls.js';
import { freePort, RedisProcess, ReplicaProcess, replicaConfig, roundRobinFetch, redisSuite } from '../../support/redis-cluster.js';

// Issue 29 §3: two replicas behind a round-robin balancer (no sticky sessions) share a real Redis
// and the root. A 2026-07-28 client has no session to pin it: its handle carries the state.
const describeWithRedis = redisSuite('test/e2e/modern/state-handles-replicas.test.ts', 'state handles of modern clients across two replicas');

describeWithRedis('a modern client alternating between two replicas sharing Redis', () => {
  let redis: RedisProcess;
  let replicas: ReplicaProcess[];
  let dir: string;
  let root: string;

  beforeAll(async () => {
    redis = await RedisProcess.start();
    const config = await replicaConfig(redis.url, '{ idle_timeout_seconds: 600, max: 50, max_per_principal: 50 }', [`journal: { dir: JOURNAL_DIR }`]);
    ({ dir, root } = config);
    const text = await readFile(config.configFile, 'utf8');
    await writeFile(config.configFile, text.replace('JOURNAL_DIR', `'${join(dir, 'journal')}'`));
    replicas = await Promise.all([0, 1].map(async () => new ReplicaProcess(await freePort(), config.configFile)));
    await Promise.all(replicas.map((replica) => replica.start()));
    await Promise.all(replicas.map((replica) => replica.waitUntilReady()));
  });

  afterAll(async () => {
    await Promise.all((replicas ?? []).map((replica) => replica.kill()));
    await redis?.destroy();
    if (dir) await rm(dir, { recursive: true, force: true });
  });

  it('views on one replica, edits on the other, lists and undoes on either', async () => {
    await writeFile(join(root, 'notes.txt'), 'alpha\nbeta\n');
    const balancer = roundRobinFetch(() => replicas.map((replica) => replica.port));
    const client = new ModernClient({ name: 'round-robin-modern', version: '1' }, { versionNegotiation: { mode: { pin: '2026-07-28' } } });
    await client.connect(new ModernHttpTransport(new URL(`${replicas[0].baseUrl}/mcp`), { fetch: balancer.fetch }));
    const portOf = (method: string) => balancer.sent.filter((entry) => entry.method === method).at(-1)!.port;
    try {
      const view = await modernCall(client, 'view', { path: '/workspace/notes.txt' });
      const handle = handleOf(view);
      const edit = await modernCall(client, 'str_replace', { path: '/workspace/notes.txt', old_str: 'alpha', new_str: 'ALPHA', handle });
      expect(edit.isError).toBe(false);
      expect(portOf('tools/call:str_replace')).not.toBe(portOf('tools/call:view'));
      expect(await readFile(join(root, 'notes.txt'), 'utf8')).toBe('ALPHA\nbeta\n');

      // Without the handle, the other replica knows no view: refused exactly as today.
      expect((await modernCall(client, 'str_replace', { path: '/workspace/notes.txt', old_str: 'beta', new_str: 'BETA' })).text).toMatch(/^FILE_NOT_VIEWED: /);

      const seen: number[] = [];
      for (let i = 0; i < 2; i += 1) {
        const listed = await modernCall(client, 'list_changes', { session: 'this', handle });
        expect((listed.structured?.changes as { path: string }[]).map((change) => change.path)).toEqual(['notes.txt']);
        seen.push(portOf('tools/call:list_changes'));
      }
      expect(new Set(seen).size).toBe(2);

      const undone = await modernCall(client, 'undo_changes', { session: 'this', since_id: '0'.repeat(17), handle });
      expect(undone.isError).toBe(false);
      expect(await readFile(join(root, 'notes.txt'), 'utf8')).toBe('alpha\nbeta\n');
      expect(new Set(balancer.sent.map((entry) => entry.port)).size).toBe(2);
    } finally {
      await client.close();
    }
  });
});
