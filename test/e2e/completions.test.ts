import { mkdir, mkdtemp, realpath, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { LoggingMessageNotificationSchema } from '@modelcontextprotocol/sdk/types.js';
import { startTestServer, type TestServer } from '../support/server.js';

const MAIN = join(process.cwd(), 'dist', 'main.js');
const TEMPLATE = 'mcpfs://{root}/{+path}';
const ref = { type: 'ref/resource' as const, uri: TEMPLATE };

/** A tree with nested entries, one of our own temp files, and a link leading outside to `outside`. */
async function seed(workspace: string, outside: string): Promise<void> {
  await mkdir(join(workspace, 'src', 'models'), { recursive: true });
  await writeFile(join(workspace, 'src', 'main.ts'), '');
  await writeFile(join(workspace, 'src', 'map.ts'), '');
  await writeFile(join(workspace, 'src', '.mcp-fs-0123456789abcdef.tmp'), '');
  await writeFile(join(workspace, 'README.md'), '');
  await mkdir(join(outside, 'secrets'), { recursive: true });
  await writeFile(join(outside, 'secrets', 'key.pem'), 'TOP SECRET');
  await symlink(outside, join(workspace, 'escape'));
}

async function checkCompletions(client: Client, rootNames: string[]): Promise<void> {
  expect(client.getServerCapabilities()?.completions).toEqual({});
  const complete = (name: string, value: string, args?: Record<string, string>) =>
    client.complete({ ref, argument: { name, value }, ...(args ? { context: { arguments: args } } : {}) });

  expect((await complete('root', '')).completion).toEqual({ values: rootNames, total: rootNames.length, hasMore: false });
  expect((await complete('root', 'work')).completion.values).toEqual(['workspace']);
  expect((await complete('root', 'zzz')).completion.values).toEqual([]);

  expect((await complete('path', '', { root: 'workspace' })).completion).toEqual({ values: ['README.md', 'escape', 'src/'], total: 3, hasMore: false });
  // Nested, sorted, directories with '/', and never our own work files.
  expect((await complete('path', 'src/', { root: 'workspace' })).completion.values).toEqual(['src/main.ts', 'src/map.ts', 'src/models/']);
  expect((await complete('path', 'src/ma', { root: 'workspace' })).completion.values).toEqual(['src/main.ts', 'src/map.ts']);
  expect((await complete('path', 'nowhere/x', { root: 'workspace' })).completion.values).toEqual([]);

  // Through a link leading outside, or above the root: nothing, and a denial in the session's log.
  const messages: unknown[] = [];
  client.setNotificationHandler(LoggingMessageNotificationSchema, (notification) => {
    messages.push(notification.params.data);
  });
  await client.setLoggingLevel('error');
  expect((await complete('path', 'escape/', { root: 'workspace' })).completion).toEqual({ values: [], total: 0, hasMore: false });
  expect((await complete('path', 'escape/secrets/', { root: 'workspace' })).completion.values).toEqual([]);
  expect((await complete('path', '../', { root: 'workspace' })).completion.values).toEqual([]);
  expect(messages).toHaveLength(3);
  expect(messages[0]).toMatchObject({ event: 'security_denial', tool: 'completion/complete', error_code: 'ACCESS_DENIED' });
  expect(JSON.stringify(messages)).not.toContain('secrets/key.pem');

  // Bad refs and arguments: -32602 with a clear message.
  await expect(client.complete({ ref: { type: 'ref/prompt', name: 'x' }, argument: { name: 'root', value: '' } })).rejects.toThrow(
    `MCP error -32602: INVALID_ARGUMENT: completion/complete: only ref { type: "ref/resource", uri: "${TEMPLATE}" } completes here`,
  );
  await expect(client.complete({ ref: { type: 'ref/resource', uri: 'file:///{path}' }, argument: { name: 'root', value: '' } })).rejects.toThrow(/-32602/);
  await expect(complete('mode', '')).rejects.toThrow('MCP error -32602: INVALID_ARGUMENT: completion/complete: argument must be "root" or "path", not "mode"');
  await expect(complete('path', '', { root: 'nope' })).rejects.toThrow('MCP error -32602: UNKNOWN_ROOT: unknown root: nope');
}

describe('completion/complete over Streamable HTTP', () => {
  let server: TestServer;
  let outside: string;

  beforeEach(async () => {
    server = await startTestServer({ roots: [{ name: 'workspace' }, { name: 'reader', allowedTools: ['read_file'] }, { name: 'lister', allowedTools: ['list_folder'] }] });
    outside = await realpath(await mkdtemp(join(tmpdir(), 'mcp-fs-e2e-outside-')));
    await seed(server.rootPath('workspace'), outside);
  });

  afterEach(async () => {
    await server.stop();
    await rm(outside, { recursive: true, force: true });
  });

  it('completes root names and nested paths, confined and permitted like list_folder', async () => {
    const client = await server.connect();
    await checkCompletions(client, ['workspace', 'lister']);
    // A root without list_folder completes no path.
    await expect(client.complete({ ref, argument: { name: 'path', value: '' }, context: { arguments: { root: 'reader' } } })).rejects.toThrow(
      'MCP error -32602: TOOL_NOT_ALLOWED: tool list_folder not allowed on root reader',
    );
  });
});

describe('completion/complete over stdio', () => {
  let dir: string;
  let client: Client | undefined;

  beforeEach(async () => {
    dir = await realpath(await mkdtemp(join(tmpdir(), 'mcp-fs-e2e-complete-')));
    await mkdir(join(dir, 'workspace'));
    await seed(join(dir, 'workspace'), join(dir, 'outside'));
  });

  afterEach(async () => {
    await client?.close();
    await rm(dir, { recursive: true, force: true });
  });

  it('completes root names and nested paths, and uses the only root when the context names none', async () => {
    const transport = new StdioClientTransport({
      command: process.execPath,
      args: [MAIN, join(dir, 'workspace')],
      env: { PATH: process.env.PATH ?? '', MCP_FS_LOG_LEVEL: 'error' },
      stderr: 'pipe',
    });
    client = new Client({ name: 'completion-test', version: '1' });
    await client.connect(transport);
    await checkCompletions(client, ['workspace']);
    expect((await client.complete({ ref, argument: { name: 'path', value: 'R' } })).completion.values).toEqual(['README.md']);
  });
});
