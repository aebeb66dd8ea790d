import { spawnSync } from 'node:child_process';
import { sha256Hex } from '../support/raw-mcp.js';
import { mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { callTool } from '../support/mcp.js';
import { success } from '../support/fixtures.js';
import { freePort, RedisProcess, ReplicaProcess, replicaConfig, roundRobinFetch, redisSuite } from '../support/redis-cluster.js';

/**
 * Three server processes over one root and one real Redis, behind a round-robin "load balancer"
 * with no sticky sessions: any replica serves any request of any session.
 */

const describeWithRedis = redisSuite('test/e2e/redis-replicas.test.ts', 'shared session state across three replicas');

const MCP_HEADERS = { 'content-type': 'application/json', accept: 'application/json, text/event-stream', 'mcp-protocol-version': '2025-06-18' };
const PING = JSON.stringify({ jsonrpc: '2.0', id: 99, method: 'ping' });
const MAX_SESSIONS = 4;

describeWithRedis('sessions shared through Redis by three replicas', () => {
  let redis: RedisProcess;
  let replicas: ReplicaProcess[];
  let dir: string;
  let root: string;
  const alive = () => replicas.filter((replica) => replica.alive).map((replica) => replica.port);

  beforeAll(async () => {
    redis = await RedisProcess.start();
    const config = await replicaConfig(redis.url, `{ idle_timeout_seconds: 600, max: ${MAX_SESSIONS}, max_per_principal: ${MAX_SESSIONS} }`);
    ({ dir, root } = config);
    replicas = await Promise.all([0, 1, 2].map(async () => new ReplicaProcess(await freePort(), config.configFile)));
    await Promise.all(replicas.map((replica) => replica.start()));
    await Promise.all(replicas.map((replica) => replica.waitUntilReady()));
  });

  afterAll(async () => {
    await Promise.all((replicas ?? []).map((replica) => replica.kill()));
    await redis?.destroy();
    if (dir) await rm(dir, { recursive: true, force: true });
  });

  const ping = (replica: ReplicaProcess, sessionId: string) =>
    fetch(`${replica.baseUrl}/mcp`, { method: 'POST', headers: { ...MCP_HEADERS, 'mcp-session-id': sessionId }, body: PING });

  it('runs an editor session across replicas, through a replica crash and a Redis restart, and ends it everywhere', async () => {
    await writeFile(join(root, 'notes.txt'), 'alpha\nbeta\n');
    await mkdir(join(root, 'sub'));
    await writeFile(join(root, 'sub', 'inner.txt'), 'inside\n');
    const balancer = roundRobinFetch(alive);
    const transport = new StreamableHTTPClientTransport(new URL(`${replicas[0].baseUrl}/mcp`), { fetch: balancer.fetch });
    const client = new Client({ name: 'round-robin', version: '1' });
    await client.connect(transport);
    const sessionId = transport.sessionId!;
    const portOf = (method: string) => balancer.sent.filter((entry) => entry.method === method).at(-1)!.port;

    // view through one replica, str_replace through another: the view record is shared.
    success(await callTool(client, 'view', { path: '/workspace/notes.txt' }));
    success(await callTool(client, 'str_replace', { path: '/workspace/notes.txt', old_str: 'alpha', new_str: 'ALPHA' }));
    expect(portOf('tools/call:str_replace')).not.toBe(portOf('tools/call:view'));
    expect(await readFile(join(root, 'notes.txt'), 'utf8')).toBe('ALPHA\nbeta\n');

    // change_directory through one replica is seen by the next.
    success(await callTool(client, 'change_directory', { path: '/workspace/sub' }));
    const read = success(await callTool(client, 'file_read', { path: 'inner.txt' }));
    expect(read.text).toContain('inside');
    expect(portOf('tools/call:file_read')).not.toBe(portOf('tools/call:change_directory'));
    expect(new Set(balancer.sent.map((entry) => entry.port)).size).toBe(3);

    // A replica dies mid-session: the others serve on, with the same view records.
    await replicas[1].kill();
    success(await callTool(client, 'view', { path: '/workspace/notes.txt' }));
    success(await callTool(client, 'str_replace', { path: '/workspace/notes.txt', old_str: 'beta', new_str: 'BETA' }));
    expect(await readFile(join(root, 'notes.txt'), 'utf8')).toBe('ALPHA\nBETA\n');

    // Restarted, it serves the session it never saw opened by this process.
    await replicas[1].start();
    await replicas[1].waitUntilReady();
    expect((await ping(replicas[1], sessionId)).status).toBe(200);

    // Redis goes away: 503 with a JSON-RPC error, /health degraded (still 200), /ready 503, a WARN in the log.
    await redis.stop({ save: true });
    const refused = await ping(replicas[0], sessionId);
    expect(refused.status).toBe(503);
    expect(((await refused.json()) as { error: { message: string } }).error.message).toMatch(/session store is unreachable/);
    const health = await fetch(`${replicas[2].baseUrl}/health`);
    expect([health.status, await health.text()]).toEqual([200, 'degraded: session store unreachable']);
    expect((await fetch(`${replicas[2].baseUrl}/ready`)).status).toBe(503);
    expect(replicas[0].log).toMatch(/"level":"warn".*session store unreachable|session store unreachable.*"level":"warn"/);

    // Back again: every replica recovers by itself and the session goes on.
    await redis.restart();
    await Promise.all(replicas.map((replica) => replica.waitUntilReady()));
    success(await callTool(client, 'view', { path: '/workspace/notes.txt' }));
    success(await callTool(client, 'str_replace', { path: '/workspace/notes.txt', old_str: 'ALPHA', new_str: 'alpha' }));
    expect(await readFile(join(root, 'notes.txt'), 'utf8')).toBe('alpha\nBETA\n');

    // DELETE through one replica ends it on all of them.
    await transport.terminateSession();
    for (const replica of replicas) expect((await ping(replica, sessionId)).status).toBe(404);
    await client.close();
  });

  it('counts the session cap across the cluster', async () => {
    // Independent of the test above: no session of it may still count.
    spawnSync('redis-cli', ['-p', String(redis.port), 'flushdb'], { stdio: 'ignore' });
    const opened: string[] = [];
    for (let i = 0; i < MAX_SESSIONS; i += 1) {
      const response = await fetch(`${replicas[i % 3].baseUrl}/mcp`, {
        method: 'POST',
        headers: MCP_HEADERS,
        body: JSON.stringify({
          jsonrpc: '2.0',
          id: 1,
          method: 'initialize',
          params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'cap', version: '1' } },
        }),
      });
      expect(response.status).toBe(200);
      await response.text();
      opened.push(response.headers.get('mcp-session-id')!);
    }
    // Each replica opened at most two of the four, yet the fifth is refused wherever it lands.
    for (const replica of replicas) {
      const refused = await fetch(`${replica.baseUrl}/mcp`, {
        method: 'POST',
        headers: MCP_HEADERS,
        body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'cap', version: '1' } } }),
      });
      expect(refused.status).toBe(503);
      expect(refused.headers.get('retry-after')).not.toBeNull();
    }
    await Promise.all(opened.map((id, i) => fetch(`${replicas[(i + 1) % 3].baseUrl}/mcp`, { method: 'DELETE', headers: { 'mcp-session-id': id } })));
  });
});

describeWithRedis('sessions shared through Redis, with bearer tokens', () => {
  const ALICE = 'alice-token-0123456789abcdef';
  const READER = 'reader-token-0123456789abcdef';
  
  let redis: RedisProcess;
  let replicas: ReplicaProcess[];
  let dir: string;
  let root: string;

  beforeAll(async () => {
    redis = await RedisProcess.start();
    const config = await replicaConfig(redis.url, '{ idle_timeout_seconds: 600, max: 10, max_per_principal: 10 }', [
      'auth:',
      '  mode: tokens',
      '  tokens:',
      `    - { name: alice, sha256: "${sha256Hex(ALICE)}" }`,
      `    - { name: reader, sha256: "${sha256Hex(READER)}", read_only: true }`,
    ]);
    ({ dir, root } = config);
    replicas = await Promise.all([0, 1].map(async () => new ReplicaProcess(await freePort(), config.configFile)));
    await Promise.all(replicas.map((replica) => replica.start()));
    await Promise.all(replicas.map((replica) => replica.waitUntilReady()));
  });

  afterAll(async () => {
    await Promise.all((replicas ?? []).map((replica) => replica.kill()));
    await redis?.destroy();
    if (dir) await rm(dir, { recursive: true, force: true });
  });

  const ping = (replica: ReplicaProcess, sessionId: string, token: string) =>
    fetch(`${replica.baseUrl}/mcp`, { method: 'POST', headers: { ...MCP_HEADERS, 'mcp-session-id': sessionId, authorization: `Bearer ${token}` }, body: PING });

  async function connect(token: string): Promise<{ client: Client; transport: StreamableHTTPClientTransport }> {
    const balancer = roundRobinFetch(() => replicas.map((replica) => replica.port));
    const transport = new StreamableHTTPClientTransport(new URL(`${replicas[0].baseUrl}/mcp`), {
      fetch: balancer.fetch,
      requestInit: { headers: { authorization: `Bearer ${token}` } },
    });
    const client = new Client({ name: 'tokens', version: '1' });
    await client.connect(transport);
    return { client, transport };
  }

  it("a session opened on one replica is another principal's 404 on every replica, and its owner's on any", async () => {
    const { client, transport } = await connect(ALICE);
    const sessionId = transport.sessionId!;
    for (const replica of replicas) {
      expect((await ping(replica, sessionId, READER)).status).toBe(404);
      expect((await ping(replica, sessionId, ALICE)).status).toBe(200);
    }
    await client.close();
  });

  it('a replica that rebuilds a read-only principal\'s session keeps it read-only', async () => {
    await writeFile(join(root, 'kept.txt'), 'original\n');
    const { client } = await connect(READER);
    // Round robin: the initialize went to one replica, these calls alternate over both.
    for (let i = 0; i < 2; i += 1) {
      expect(success(await callTool(client, 'read_file', { root: 'workspace', path: 'kept.txt' })).text).toContain('original');
      const denied = await callTool(client, 'write_file', { root: 'workspace', path: 'kept.txt', content: 'changed\n' });
      expect(denied.isError).toBe(true);
    }
    expect(await readFile(join(root, 'kept.txt'), 'utf8')).toBe('original\n');
    await client.close();
  });
});
