import { mkdir, mkdtemp, readdir, readFile, realpath, rm, symlink, unlink, writeFile } from 'node:fs/promises';
import { tmpdir, userInfo } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { ListRootsRequestSchema, LoggingMessageNotificationSchema, ResourceListChangedNotificationSchema } from '@modelcontextprotocol/sdk/types.js';
import { callTool } from '../support/mcp.js';
import { nextUpdate, sleep, updatesOf } from '../support/notifications.js';
import { startTestServer } from '../support/server.js';

const MAIN = join(process.cwd(), 'dist', 'main.js');
const NO_ROOTS = 'NO_ROOTS: the client shared no folders; share a folder in the client or start the server with DIR arguments';

let dir: string;
const clients: Client[] = [];

beforeEach(async () => {
  dir = await realpath(await mkdtemp(join(tmpdir(), 'mcp-fs-e2e-client-roots-')));
  for (const folder of ['app', 'other/app', 'docs']) await mkdir(join(dir, folder), { recursive: true });
  await writeFile(join(dir, 'app', 'a.txt'), 'from app\n');
  await writeFile(join(dir, 'other', 'app', 'b.txt'), 'from other app\n');
  await writeFile(join(dir, 'docs', 'd.md'), '# docs\n');
  await writeFile(join(dir, 'plain.txt'), 'a file\n');
});

afterEach(async () => {
  await Promise.all(clients.splice(0).map((client) => client.close()));
  await rm(dir, { recursive: true, force: true });
});

const uri = (path: string) => pathToFileURL(join(dir, path)).href;

interface Started {
  readonly client: Client;
  /** How many times the server asked for the client's roots. */
  readonly listed: () => number;
  readonly stderr: () => string;
  /** Replaces the folders the client shares (and tells the server). */
  share(uris: string[]): Promise<void>;
}

/** The built server on stdio, as an editor starts it; `roots` undefined: a client without the roots capability. */
async function start(args: string[], roots: string[] | undefined, env: Record<string, string> = {}): Promise<Started> {
  const transport = new StdioClientTransport({ command: process.execPath, args: [MAIN, ...args], env: { PATH: process.env.PATH ?? '', MCP_FS_LOG_LEVEL: 'info', ...env }, stderr: 'pipe' });
  let stderr = '';
  transport.stderr?.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const client = new Client({ name: 'client-roots-test', version: '1' }, roots ? { capabilities: { roots: { listChanged: true } } } : {});
  let current = roots ?? [];
  let listed = 0;
  if (roots) {
    client.setRequestHandler(ListRootsRequestSchema, () => {
      listed += 1;
      return { roots: current.map((entry) => ({ uri: entry })) };
    });
  }
  await client.connect(transport);
  clients.push(client);
  return {
    client,
    listed: () => listed,
    stderr: () => stderr,
    async share(uris) {
      current = uris;
      await client.sendRootsListChanged();
    },
  };
}

async function eventually(check: () => Promise<boolean> | boolean, what: string): Promise<void> {
  for (let attempt = 0; attempt < 200; attempt += 1) {
    if (await check()) return;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  throw new Error(`timed out waiting for ${what}`);
}

async function rootNames(client: Client): Promise<string[]> {
  return ((await callTool(client, 'list_roots', {})).structured.roots as Array<{ name: string }>).map((root) => root.name);
}

async function rootsAre(client: Client, names: string[]): Promise<void> {
  await eventually(async () => JSON.stringify(await rootNames(client)) === JSON.stringify(names), `roots ${names.join(', ')}`);
}

describe('roots from the client (stdio, no DIR, no config)', () => {
  it('serves the folders the client shares, named like DIR arguments, skipping what is not a folder', async () => {
    const { client, stderr } = await start([], [uri('app'), 'https://example.com/x', uri('missing'), uri('plain.txt'), uri('other/app'), uri('docs')]);
    await rootsAre(client, ['app', 'app-2', 'docs']);
    expect((await callTool(client, 'read_file', { root: 'app', path: 'a.txt' })).structured.content).toBe('from app\n');
    expect((await callTool(client, 'read_file', { root: 'app-2', path: 'b.txt' })).structured.content).toBe('from other app\n');
    expect((await callTool(client, 'list_roots', {})).structured.roots[0].allowed_tools).toEqual(['*']);
    expect(stderr().match(/client root skipped/g)).toHaveLength(3);
    // Confined like a configured root.
    expect((await callTool(client, 'read_file', { root: 'app', path: '../plain.txt' })).text).toMatch(/^ACCESS_DENIED: /);
    // Completion and the editor namespace follow the shared folders.
    expect((await client.complete({ ref: { type: 'ref/resource', uri: 'mcpfs://{root}/{+path}' }, argument: { name: 'root', value: 'app' } })).completion.values).toEqual(['app', 'app-2']);
    expect((await callTool(client, 'view', { path: '/docs/d.md' })).isError).toBe(false);
  });

  it("never serves a folder that holds the server's private state (the journal): a shared $HOME works, the temp dir holding it is skipped", async () => {
    const home = join(dir, 'home');
    const temp = join(dir, 'tmp');
    await Promise.all([mkdir(home, { recursive: true }), mkdir(temp, { recursive: true })]);
    await writeFile(join(home, 'h.txt'), 'home\n');
    const { client, stderr } = await start([], [pathToFileURL(home).href, pathToFileURL(temp).href, pathToFileURL(dir).href], { HOME: home, TMPDIR: temp });
    await rootsAre(client, ['home']);
    expect(stderr().match(/client root skipped.*private state directory/g)).toHaveLength(2);
    // The journal works, in the temp dir: a change in the shared $HOME is listed and undone.
    expect((await callTool(client, 'write_file', { root: 'home', path: 'h.txt', content: 'changed\n' })).isError).toBe(false);
    const { changes } = (await callTool(client, 'list_changes', { root: 'home' })).structured as { changes: { id: string }[] };
    expect((await callTool(client, 'undo_changes', { ids: [changes[0].id] })).structured.results[0].outcome).toBe('restored');
    expect(await readFile(join(home, 'h.txt'), 'utf8')).toBe('home\n');
    expect(await readdir(join(temp, `mcp-fs-inflight-${userInfo().uid}`, 'journal', 'records'))).not.toEqual([]);
  });

  it('lists again on roots/list_changed and replaces the set; resources/list_changed follows; a vanished root is UNKNOWN_ROOT', async () => {
    const started = await start([], [uri('app')]);
    const { client } = started;
    let resourceListChanges = 0;
    client.setNotificationHandler(ResourceListChangedNotificationSchema, () => {
      resourceListChanges += 1;
    });
    await rootsAre(client, ['app']);
    // The first set was announced before list_roots could see it (one stream, in order).
    expect(resourceListChanges).toBe(1);
    expect((await callTool(client, 'change_directory', { path: '/app' })).isError).toBe(false);
    const warnings: unknown[] = [];
    client.setNotificationHandler(LoggingMessageNotificationSchema, (notification) => {
      warnings.push(notification.params);
    });
    await client.setLoggingLevel('warning');
    await started.share([uri('docs'), uri('missing')]);
    await rootsAre(client, ['docs']);
    expect(resourceListChanges).toBe(2);
    // The session's log says which shared entry was skipped and why, never where it is.
    expect(warnings).toEqual([{ level: 'warning', logger: 'mcp-filesystem', data: { event: 'client_root_skipped', index: 1, reason: 'no such directory' } }]);
    expect((await callTool(client, 'read_file', { root: 'app', path: 'a.txt' })).text).toBe('UNKNOWN_ROOT: unknown root: app');
    expect((await callTool(client, 'read_file', { root: 'docs', path: 'd.md' })).structured.content).toBe('# docs\n');
    // The working directory was in /app, which went away: it falls back to the first root.
    expect((await callTool(client, 'view', { path: 'd.md' })).isError).toBe(false);
    expect((await client.listResources()).resources.map((resource) => resource.uri)).toEqual(['mcpfs://docs/', 'ui://mcp-filesystem/review']);

    // The client stops sharing: no roots, every tool but list_roots answers NO_ROOTS.
    await started.share([]);
    await rootsAre(client, []);
    expect((await callTool(client, 'read_file', { root: 'docs', path: 'd.md' })).text).toBe(NO_ROOTS);
    expect((await callTool(client, 'view', { path: '/' })).text).toBe(NO_ROOTS);
    expect((await callTool(client, 'list_changes', {})).text).toBe(NO_ROOTS);
    expect(started.listed()).toBe(3);
  });

  it('a folder the client stops sharing: disk edits there no longer notify its subscriptions (issue 32)', async () => {
    const { client, share } = await start([], [uri('app'), uri('docs')]);
    await rootsAre(client, ['app', 'docs']);
    const updates = updatesOf(client);
    await client.subscribeResource({ uri: 'mcpfs://app/a.txt' });
    await client.subscribeResource({ uri: 'mcpfs://docs/d.md' });
    await writeFile(join(dir, 'app', 'a.txt'), 'edited while shared\n');
    expect(await nextUpdate(updates, 0)).toBe('mcpfs://app/a.txt');
    await share([uri('docs')]);
    await rootsAre(client, ['docs']);
    await sleep(400);
    const before = updates.length;
    await writeFile(join(dir, 'app', 'a.txt'), 'edited after it stopped being shared\n');
    await writeFile(join(dir, 'app', 'a.txt'), 'and again\n');
    // The folder still shared still notifies.
    await writeFile(join(dir, 'docs', 'd.md'), '# still shared\n');
    await nextUpdate(updates, before);
    await sleep(600);
    expect(updates.slice(before).map((update) => update.uri)).toEqual(['mcpfs://docs/d.md']);
  });

  it('a client without the roots capability gets no roots, NO_ROOTS and the usual tools/list', async () => {
    const { client } = await start([], undefined);
    expect(await rootNames(client)).toEqual([]);
    expect((await callTool(client, 'read_file', { root: 'app', path: 'a.txt' })).text).toBe(NO_ROOTS);
    expect((await callTool(client, 'grep', { root: 'app', pattern: 'x' })).text).toBe(NO_ROOTS);
    const dirServer = await start([join(dir, 'app')], undefined);
    const names = (result: Awaited<ReturnType<Client['listTools']>>) => result.tools.map((tool) => tool.name);
    expect(names(await client.listTools())).toEqual(names(await dirServer.client.listTools()));
  });

  it('--read-only and --toolsets apply to the shared folders', async () => {
    const { client } = await start(['--read-only', '--toolsets', 'root'], [uri('app')]);
    await rootsAre(client, ['app']);
    const [root] = (await callTool(client, 'list_roots', {})).structured.roots;
    expect(root.allowed_tools).toContain('read_file');
    expect(root.allowed_tools).not.toContain('write_file');
    expect((await callTool(client, 'write_file', { root: 'app', path: 'new.txt', content: 'x' })).text).toMatch(/^TOOL_NOT_ALLOWED: /);
    expect((await callTool(client, 'view', { path: '/app/a.txt' })).text).toBe('INVALID_ARGUMENT: unknown tool: view');
  });

  it('resolves a folder that is a link once, when it is listed', async () => {
    await symlink(join(dir, 'app'), join(dir, 'linked'));
    const { client } = await start([], [uri('linked')]);
    await rootsAre(client, ['linked']);
    await unlink(join(dir, 'linked'));
    await symlink(join(dir, 'docs'), join(dir, 'linked'));
    expect((await callTool(client, 'read_file', { root: 'linked', path: 'a.txt' })).structured.content).toBe('from app\n');
    expect((await callTool(client, 'read_file', { root: 'linked', path: 'd.md' })).text).toMatch(/^NOT_FOUND: /);
  });

  it('DIR arguments beat the client\'s roots: never asked for, one INFO line says so', async () => {
    const started = await start([join(dir, 'docs')], [uri('app')]);
    await eventually(() => started.stderr().includes('client roots ignored'), 'the INFO line');
    expect(await rootNames(started.client)).toEqual(['docs']);
    await started.share([uri('app'), uri('other/app')]);
    expect(await rootNames(started.client)).toEqual(['docs']);
    expect(started.listed()).toBe(0);
    expect(started.stderr().match(/client roots ignored/g)).toHaveLength(1);
  });
});

describe('roots from the client over HTTP', () => {
  it('are never asked for: the configured roots stand', async () => {
    const server = await startTestServer();
    try {
      const client = new Client({ name: 'http-roots', version: '1' }, { capabilities: { roots: { listChanged: true } } });
      let listed = 0;
      client.setRequestHandler(ListRootsRequestSchema, () => {
        listed += 1;
        return { roots: [{ uri: uri('app') }] };
      });
      const { StreamableHTTPClientTransport } = await import('@modelcontextprotocol/sdk/client/streamableHttp.js');
      await client.connect(new StreamableHTTPClientTransport(new URL(server.url)));
      clients.push(client);
      await client.sendRootsListChanged();
      expect(await rootNames(client)).toEqual(['workspace']);
      expect(listed).toBe(0);
    } finally {
      await server.stop();
    }
  });
});
