import { spawnSync } from 'node:child_process';
import { readFile, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { callTool } from '../support/mcp.js';
import { freePort, RedisProcess, ReplicaProcess, replicaConfig, redisSuite } from '../support/redis-cluster.js';

// Issue 20 §3: replicas with session_store.url set keep the journal's records in that Redis and the
// before-images in the journal.dir they share with the root. Any replica lists and undoes any change;
// two undos of one change at once (one per replica) restore it once; a restarted replica still lists
// and undoes; a replica whose journal.dir lacks the image says not_undoable, and why.

const describeWithRedis = redisSuite('test/e2e/change-journal-redis-replicas.test.ts', 'the change journal across replicas on Redis');

const MAX_BYTES = 64;

describeWithRedis('change journal shared by two replicas through Redis', () => {
  let redis: RedisProcess;
  let dir: string;
  let root: string;
  let one: ReplicaProcess;
  let two: ReplicaProcess;
  /** Same Redis and root, but its own journal.dir: a replica that does not share the images. */
  let lone: ReplicaProcess;
  let configFile: string;
  const clients: Client[] = [];
  const late: ReplicaProcess[] = [];

  beforeAll(async () => {
    redis = await RedisProcess.start();
    const sessions = '{ idle_timeout_seconds: 600, max: 50, max_per_principal: 50 }';
    const config = await replicaConfig(redis.url, sessions, ['journal: { dir: JOURNAL_DIR, max_bytes: 64, max_file_bytes: 64 }']);
    ({ dir, root, configFile } = config);
    const text = await readFile(config.configFile, 'utf8');
    await writeFile(config.configFile, text.replace('JOURNAL_DIR', `'${join(dir, 'journal')}'`));
    const loneConfig = join(dir, 'lone.yaml');
    await writeFile(loneConfig, text.replace('JOURNAL_DIR', `'${join(dir, 'journal-elsewhere')}'`));
    [one, two, lone] = await Promise.all([config.configFile, config.configFile, loneConfig].map(async (file) => new ReplicaProcess(await freePort(), file)));
    await Promise.all([one, two, lone].map((replica) => replica.start()));
  });

  afterAll(async () => {
    await Promise.all(clients.map((client) => client.close().catch(() => undefined)));
    await Promise.all([one, two, lone, ...late].filter(Boolean).map((replica) => replica.kill()));
    await redis?.destroy();
    if (dir) await rm(dir, { recursive: true, force: true });
  });

  async function connect(replica: ReplicaProcess): Promise<Client> {
    const client = new Client({ name: 'journal-replicas', version: '1' });
    await client.connect(new StreamableHTTPClientTransport(new URL(`${replica.baseUrl}/mcp`)));
    clients.push(client);
    return client;
  }

  const structured = async (client: Client, tool: string, args: Record<string, unknown>) => {
    const outcome = await callTool(client, tool, args);
    if (outcome.isError) throw new Error(outcome.text);
    return outcome.structured;
  };
  const changesOf = async (client: Client, path: string) => (await structured(client, 'list_changes', { root: 'workspace', path })).changes;
  const undo = async (client: Client, id: string) => (await structured(client, 'undo_changes', { ids: [id] })).results[0];
  const redisCli = (...args: string[]) => spawnSync('redis-cli', ['-p', String(redis.port), ...args], { encoding: 'utf8' }).stdout.trim();

  it('keeps the records in Redis: a change made on one is listed and undone on the other', async () => {
    const [viaOne, viaTwo] = [await connect(one), await connect(two)];
    await writeFile(join(root, 'shared.txt'), 'original\n');
    await structured(viaOne, 'write_file', { root: 'workspace', path: 'shared.txt', content: 'changed on one\n' });
    const [change] = await changesOf(viaTwo, 'shared.txt');
    expect(change).toMatchObject({ tool: 'write_file', op: 'modify', undoable: true });
    expect(redisCli('exists', `mcp-fs:journal:record:${change.id}`)).toBe('1');
    expect(await undo(viaTwo, change.id)).toMatchObject({ id: change.id, outcome: 'restored' });
    expect(await readFile(join(root, 'shared.txt'), 'utf8')).toBe('original\n');
    expect((await changesOf(viaOne, 'shared.txt')).map((listed: { tool: string; undoable: boolean }) => [listed.tool, listed.undoable])).toEqual([
      ['undo_changes', true],
      ['write_file', false],
    ]);
  });

  it('two undos of one change at once, one through each replica: one restored, never both', async () => {
    const [viaOne, viaTwo] = [await connect(one), await connect(two)];
    for (let round = 0; round < 6; round += 1) {
      const name = `race-${round}.txt`;
      await writeFile(join(root, name), 'v1\n');
      await structured(viaOne, 'write_file', { root: 'workspace', path: name, content: 'v2\n' });
      const [change] = await changesOf(viaTwo, name);
      const results = await Promise.all([viaOne, viaTwo].map((client) => undo(client, change.id)));
      expect(results.filter((result) => result.outcome === 'restored')).toHaveLength(1);
      // The other lost the claim, found the file restored already, or, had the first claimed it
      // before it even read the change, found it undone: a conflict every time (issue 20 §3).
      const [loser] = results.filter((result) => result.outcome !== 'restored');
      expect([
        { outcome: 'conflict', reason: 'another undo of this change ran first' },
        { outcome: 'conflict', reason: `${name}: its content changed since` },
        { outcome: 'conflict', reason: expect.stringMatching(/^already undone \(by session /) },
      ]).toContainEqual({ outcome: loser.outcome, reason: loser.reason });
      expect(await readFile(join(root, name), 'utf8')).toBe('v1\n');
      expect((await changesOf(viaOne, name)).filter((listed: { tool: string }) => listed.tool === 'undo_changes')).toHaveLength(1);
    }
  });

  it('a replica killed and restarted still lists and undoes the changes made before', async () => {
    const viaOne = await connect(one);
    await writeFile(join(root, 'restart.txt'), 'before\n');
    await structured(viaOne, 'write_file', { root: 'workspace', path: 'restart.txt', content: 'after\n' });
    await one.kill();
    await one.start();
    const again = await connect(one);
    const [change] = await changesOf(again, 'restart.txt');
    expect(change).toMatchObject({ tool: 'write_file', undoable: true });
    expect(await undo(again, change.id)).toMatchObject({ outcome: 'restored' });
    expect(await readFile(join(root, 'restart.txt'), 'utf8')).toBe('before\n');
  });

  it('a replica whose journal.dir lacks the before-image lists the change and answers not_undoable with the reason', async () => {
    const [viaOne, viaLone] = [await connect(one), await connect(lone)];
    await writeFile(join(root, 'elsewhere.txt'), 'kept on the shared journal\n');
    await structured(viaOne, 'write_file', { root: 'workspace', path: 'elsewhere.txt', content: 'new\n' });
    const [change] = await changesOf(viaLone, 'elsewhere.txt');
    expect(change).toMatchObject({ tool: 'write_file', undoable: true });
    const result = await undo(viaLone, change.id);
    expect(result).toMatchObject({ id: change.id, outcome: 'not_undoable' });
    expect(result.reason).toMatch(/before-image is not in the journal.*not on this replica's journal directory/);
    expect(await readFile(join(root, 'elsewhere.txt'), 'utf8')).toBe('new\n');
    // The replica that shares the images still can.
    expect(await undo(await connect(two), change.id)).toMatchObject({ outcome: 'restored' });
  });

  it('reports the cluster-wide journal bytes and records, and its evictions, in /metrics', async () => {
    const viaTwo = await connect(two);
    await writeFile(join(root, 'big.txt'), 'x'.repeat(MAX_BYTES - 4));
    await structured(viaTwo, 'write_file', { root: 'workspace', path: 'big.txt', content: 'y'.repeat(MAX_BYTES - 4) });
    await structured(viaTwo, 'write_file', { root: 'workspace', path: 'big.txt', content: 'z' });
    const metrics = await (await fetch(`${two.baseUrl}/metrics`)).text();
    const value = (name: string) => Number(new RegExp(`^${name} (\\d+)$`, 'm').exec(metrics)?.[1]);
    expect(value('mcp_fs_journal_evictions_total')).toBeGreaterThanOrEqual(1);
    expect(value('mcp_fs_journal_bytes')).toBe(Number(redisCli('get', 'mcp-fs:journal:bytes')));
    expect(value('mcp_fs_journal_bytes')).toBeLessThanOrEqual(MAX_BYTES);
    expect(value('mcp_fs_journal_records')).toBe(Number(redisCli('hlen', 'mcp-fs:journal:ids')));
    const [latest, evicted] = await changesOf(viaTwo, 'big.txt');
    expect(latest.undoable).toBe(true);
    expect(evicted).toMatchObject({ undoable: false, reason: expect.stringContaining('journal.max_bytes') });
  });

  it('a replica started while Redis is down starts, defers recovery, and serves the journal once Redis is back', async () => {
    await redis.stop({ save: true });
    const replica = new ReplicaProcess(await freePort(), configFile);
    late.push(replica);
    await replica.start();
    expect(replica.log).toContain('journal recovery deferred until its store is reachable');
    await redis.restart();
    await replica.waitUntilReady();
    const deadline = Date.now() + 15_000;
    while (!replica.log.includes('"journal recovered"') && Date.now() < deadline) await new Promise((done) => setTimeout(done, 100));
    expect(replica.log).toContain('"journal recovered"');
    expect((await changesOf(await connect(replica), 'shared.txt')).map((listed: { tool: string }) => listed.tool)).toEqual(['undo_changes', 'write_file']);
  });
});
