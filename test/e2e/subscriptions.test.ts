import { mkdir, mkdtemp, realpath, rename, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Container } from 'inversify';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import type { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { TOKENS } from '../../src/composition/tokens.js';
import type { FileWatcher } from '../../src/domain/ports/file-watcher.port.js';
import { callTool } from '../support/mcp.js';
import { nextUpdate, sleep, updatesOf } from '../support/notifications.js';
import { startTestServer, type TestServer } from '../support/server.js';

const MAIN = join(process.cwd(), 'dist', 'main.js');

/** The subscription journeys every transport must pass; `host` maps an in-root path to the host. */
async function checkSubscriptions(client: Client, host: (rel: string) => string): Promise<void> {
  expect(client.getServerCapabilities()?.resources).toEqual({ subscribe: true, listChanged: true });
  const updates = updatesOf(client);

  // A change made through this server.
  await client.subscribeResource({ uri: 'mcpfs://workspace/notes.txt' });
  expect((await callTool(client, 'write_file', { root: 'workspace', path: 'notes.txt', content: 'v2' })).isError).toBe(false);
  expect(await nextUpdate(updates, 0)).toBe('mcpfs://workspace/notes.txt');

  // A change by another program.
  await sleep(300);
  const seen = updates.length;
  await writeFile(host('notes.txt'), 'v3 from elsewhere');
  expect(await nextUpdate(updates, seen)).toBe('mcpfs://workspace/notes.txt');

  // A directory: an entry added.
  await client.subscribeResource({ uri: 'mcpfs://workspace/src' });
  await sleep(300);
  const beforeAdd = updates.length;
  await writeFile(host('src/new.ts'), 'export {};\n');
  await nextUpdate(updates, beforeAdd);
  expect(updates.slice(beforeAdd).map((update) => update.uri)).toContain('mcpfs://workspace/src');

  // Unsubscribed: silence.
  await client.unsubscribeResource({ uri: 'mcpfs://workspace/notes.txt' });
  await client.unsubscribeResource({ uri: 'mcpfs://workspace/src' });
  await sleep(300);
  const beforeSilence = updates.length;
  await writeFile(host('notes.txt'), 'v4');
  await writeFile(host('src/newer.ts'), '');
  await sleep(600);
  expect(updates.length).toBe(beforeSilence);

  // Refused like a read: missing, outside, through a link leading outside.
  await expect(client.subscribeResource({ uri: 'mcpfs://workspace/missing.txt' })).rejects.toThrow('MCP error -32602: NOT_FOUND: path not found: missing.txt (root: workspace)');
  await expect(client.subscribeResource({ uri: 'mcpfs://workspace/../../etc/passwd' })).rejects.toThrow(/MCP error -32602: ACCESS_DENIED: /);
  await expect(client.subscribeResource({ uri: 'mcpfs://workspace/escape/secret.txt' })).rejects.toThrow(/MCP error -32602: ACCESS_DENIED: /);
  await expect(client.subscribeResource({ uri: 'mcpfs://nope/a' })).rejects.toThrow('MCP error -32602: UNKNOWN_ROOT: unknown root: nope');
}

async function seed(workspace: string, outside: string): Promise<void> {
  await mkdir(join(workspace, 'src'), { recursive: true });
  await writeFile(join(workspace, 'notes.txt'), 'v1');
  await mkdir(outside, { recursive: true });
  await writeFile(join(outside, 'secret.txt'), 'TOP SECRET');
  await symlink(outside, join(workspace, 'escape'));
}

describe('resources/subscribe over Streamable HTTP', () => {
  let server: TestServer;
  let container: Container;
  let outside: string;
  const watcher = () => container.get<FileWatcher>(TOKENS.FileWatcher);

  beforeEach(async () => {
    server = await startTestServer({ subscriptions: { maxPerSession: 3 }, configure: (built) => (container = built) });
    outside = await realpath(await mkdtemp(join(tmpdir(), 'mcp-fs-e2e-sub-outside-')));
    await seed(server.rootPath('workspace'), outside);
  });

  afterEach(async () => {
    await server.stop();
    await rm(outside, { recursive: true, force: true });
  });

  it('notifies of changes by the server and by others, files and directories; unsubscribe is silence; refusals like a read', async () => {
    await checkSubscriptions(await server.connect(), (rel) => join(server.rootPath('workspace'), rel));
    expect(watcher().size).toBe(0);
  });

  it('coalesces a burst (at most one per 250 ms) and never loses its last change', async () => {
    const client = await server.connect();
    const updates = updatesOf(client);
    await client.subscribeResource({ uri: 'mcpfs://workspace/notes.txt' });
    let lastWrite = 0;
    for (let i = 0; i < 20; i += 1) {
      await writeFile(join(server.rootPath('workspace'), 'notes.txt'), `burst ${i}`);
      lastWrite = Date.now();
      await sleep(10);
    }
    await sleep(700);
    expect(updates.length).toBeGreaterThanOrEqual(2);
    expect(updates.length).toBeLessThanOrEqual(4);
    for (let i = 1; i < updates.length; i += 1) expect(updates[i].at - updates[i - 1].at).toBeGreaterThanOrEqual(240);
    expect(updates[updates.length - 1].at).toBeGreaterThanOrEqual(lastWrite);
  });

  it('a write through this server is one notification per URI, though heard through the change feed and through inotify', async () => {
    const client = await server.connect();
    const updates = updatesOf(client);
    await client.subscribeResource({ uri: 'mcpfs://workspace/notes.txt' });
    await client.subscribeResource({ uri: 'mcpfs://workspace/src' });
    expect((await callTool(client, 'write_file', { root: 'workspace', path: 'notes.txt', content: 'v2' })).isError).toBe(false);
    expect((await callTool(client, 'write_file', { root: 'workspace', path: 'src/added.ts', content: '' })).isError).toBe(false);
    await nextUpdate(updates, 1);
    await sleep(700);
    expect(updates.map((update) => update.uri).sort()).toEqual(['mcpfs://workspace/notes.txt', 'mcpfs://workspace/src']);
  });

  it('shares watches between sessions, caps a session, leaves no watch after a flood of 1,000 pairs or a session\'s end', async () => {
    const [one, two] = [await server.connect(), await server.connect()];
    await one.subscribeResource({ uri: 'mcpfs://workspace/notes.txt' });
    await two.subscribeResource({ uri: 'mcpfs://workspace/notes.txt' });
    expect(watcher().size).toBe(1);
    await one.subscribeResource({ uri: 'mcpfs://workspace/src' });
    await one.subscribeResource({ uri: 'mcpfs://workspace/' });
    await expect(one.subscribeResource({ uri: 'mcpfs://workspace/escape' })).rejects.toThrow(/ACCESS_DENIED/);
    await writeFile(join(server.rootPath('workspace'), 'fourth.txt'), '');
    await expect(one.subscribeResource({ uri: 'mcpfs://workspace/fourth.txt' })).rejects.toThrow(
      'MCP error -32602: INVALID_ARGUMENT: too many subscriptions: this session holds 3, the most subscriptions.max_per_session allows; unsubscribe from some first',
    );
    for (let i = 0; i < 1000; i += 1) {
      await two.subscribeResource({ uri: 'mcpfs://workspace/src' });
      await two.unsubscribeResource({ uri: 'mcpfs://workspace/src' });
    }
    expect(watcher().size).toBe(3);
    await (two.transport as StreamableHTTPClientTransport).terminateSession();
    expect(watcher().size).toBe(3);
    await (one.transport as StreamableHTTPClientTransport).terminateSession();
    await sleep(10);
    expect(watcher().size).toBe(0);
  }, 60_000);

  it("a subscribed file's folder removed and made again on disk: later disk edits notify again (issue 32)", async () => {
    const client = await server.connect();
    const updates = updatesOf(client);
    const workspace = server.rootPath('workspace');
    await writeFile(join(workspace, 'src/main.ts'), 'v1');
    await client.subscribeResource({ uri: 'mcpfs://workspace/src/main.ts' });
    await rm(join(workspace, 'src'), { recursive: true });
    await mkdir(join(workspace, 'src'));
    await writeFile(join(workspace, 'src/main.ts'), 'v2');
    await nextUpdate(updates, 0);
    // Past the coalescing window, an edit in place is heard through the rebuilt watch.
    await sleep(400);
    const seen = updates.length;
    await writeFile(join(workspace, 'src/main.ts'), 'v3 edited in place');
    expect(await nextUpdate(updates, seen)).toBe('mcpfs://workspace/src/main.ts');
  });

  it('Security: a subscribed directory swapped for a link leading outside: the swap is told, the outside never', async () => {
    const client = await server.connect();
    const updates = updatesOf(client);
    const workspace = server.rootPath('workspace');
    await client.subscribeResource({ uri: 'mcpfs://workspace/src' });
    await rename(join(workspace, 'src'), join(outside, 'moved'));
    await symlink(join(outside, 'moved'), join(workspace, 'src'));
    await nextUpdate(updates, 0);
    await sleep(400);
    const afterSwap = updates.length;
    await writeFile(join(outside, 'moved', 'planted.txt'), 'x');
    await writeFile(join(outside, 'secret.txt'), 'changed');
    await sleep(600);
    expect(updates.length).toBe(afterSwap);
  });
});

describe('resources/subscribe over stdio', () => {
  let dir: string;
  let client: Client | undefined;

  beforeEach(async () => {
    dir = await realpath(await mkdtemp(join(tmpdir(), 'mcp-fs-e2e-sub-')));
    await seed(join(dir, 'workspace'), join(dir, 'outside'));
  });

  afterEach(async () => {
    await client?.close();
    await rm(dir, { recursive: true, force: true });
  });

  it('notifies of changes by the server and by this (another) process, files and directories; unsubscribe is silence', async () => {
    const transport = new StdioClientTransport({ command: process.execPath, args: [MAIN, join(dir, 'workspace')], env: { PATH: process.env.PATH ?? '', MCP_FS_LOG_LEVEL: 'error' }, stderr: 'pipe' });
    client = new Client({ name: 'subscriptions-test', version: '1' });
    await client.connect(transport);
    await checkSubscriptions(client, (rel) => join(dir, 'workspace', rel));
  });
});
