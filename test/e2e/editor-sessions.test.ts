import { promises as fs } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { HttpServer } from '../../src/adapters/inbound/http/http-app.js';
import type { InMemorySessionState } from '../../src/adapters/outbound/in-memory-session-state.js';
import { buildContainer } from '../../src/composition/container.js';
import { SESSION_STATE } from '../../src/composition/modules/editor-tools.module.js';
import { defaultSettings } from '../../src/config/schema.js';
import { callTool, type ToolCallOutcome } from '../support/mcp.js';
import { RecordingLogger } from '../support/recording-logger.js';
import { startTestServer, type TestServer } from '../support/server.js';
import { expectError, writeTree } from '../support/fixtures.js';

/** The view-before-edit gate, the working directory and session end, over Streamable HTTP. */

let server: TestServer;
let client: Client;
let ws: string;

beforeAll(async () => {
  server = await startTestServer({
    roots: [{ name: 'workspace' }, { name: 'readonly', allowedTools: ['read_file'] }],
  });
  client = await server.connect();
  ws = server.rootPath('workspace');
});

afterAll(async () => {
  await server?.stop();
});

function success(outcome: ToolCallOutcome): { text: string; structured: any } {
  if (outcome.isError) throw new Error(`expected success, got: ${outcome.text}`);
  return { text: outcome.text, structured: outcome.structured };
}

const view = (args: Record<string, unknown>, on = client) => callTool(on, 'view', args);
const strReplace = (args: Record<string, unknown>, on = client) => callTool(on, 'str_replace', args);

describe('the view-before-edit gate over MCP', () => {
  it('Edit rejected without prior view', async () => {
    await writeTree(ws, { 'g/a.txt': 'hello\n' });
    expectError(await strReplace({ path: '/workspace/g/a.txt', old_str: 'hello', new_str: 'bye' }), 'FILE_NOT_VIEWED', '/workspace/g/a.txt');
    expect(await fs.readFile(join(ws, 'g/a.txt'), 'utf8')).toBe('hello\n');
  });

  it('a view in one session does not open the file to another (two clients)', async () => {
    await writeTree(ws, { 'g/shared.txt': 'hello\n' });
    const second = await server.connect();
    success(await view({ path: '/workspace/g/shared.txt' }));
    expectError(await strReplace({ path: '/workspace/g/shared.txt', old_str: 'hello', new_str: 'bye' }, second), 'FILE_NOT_VIEWED');
    success(await strReplace({ path: '/workspace/g/shared.txt', old_str: 'hello', new_str: 'bye' }));
  });

  it('FILE_CHANGED_SINCE_VIEW after an outside write; a fresh view clears it', async () => {
    await writeTree(ws, { 'g/changing.txt': 'version 1\n' });
    success(await view({ path: '/workspace/g/changing.txt' }));
    await fs.writeFile(join(ws, 'g/changing.txt'), 'version 2\n');
    expectError(await strReplace({ path: '/workspace/g/changing.txt', old_str: 'version', new_str: 'v' }), 'FILE_CHANGED_SINCE_VIEW', 'view it again');
    expect(await fs.readFile(join(ws, 'g/changing.txt'), 'utf8')).toBe('version 2\n');
    success(await view({ path: '/workspace/g/changing.txt' }));
    success(await strReplace({ path: '/workspace/g/changing.txt', old_str: 'version', new_str: 'v' }));
  });

  it("an edit by another session counts as a change for this one, not for the editor's own session", async () => {
    await writeTree(ws, { 'g/both.txt': 'one two\n' });
    const second = await server.connect();
    success(await view({ path: '/workspace/g/both.txt' }));
    success(await view({ path: '/workspace/g/both.txt' }, second));
    success(await strReplace({ path: '/workspace/g/both.txt', old_str: 'one', new_str: '1' }, second));
    success(await strReplace({ path: '/workspace/g/both.txt', old_str: 'two', new_str: '2' }, second));
    expectError(await strReplace({ path: '/workspace/g/both.txt', old_str: 'two', new_str: 'II' }), 'FILE_CHANGED_SINCE_VIEW');
  });
});

describe('change_directory over MCP', () => {
  it('is always available, even on a root that allows none of the namespace tools', async () => {
    const other = await server.connect();
    expect(success(await callTool(other, 'change_directory', { path: '/readonly' })).structured).toEqual({ cwd: '/readonly' });
    expectError(await view({ path: '.' }, other), 'TOOL_NOT_ALLOWED', 'tool view not allowed on root readonly');
  });

  it('must name an existing directory inside a root', async () => {
    await writeTree(ws, { 'cd/file.txt': 'x' });
    expectError(await callTool(client, 'change_directory', { path: '/workspace/cd/nope' }), 'NOT_FOUND', '/workspace/cd/nope');
    expectError(await callTool(client, 'change_directory', { path: '/workspace/cd/file.txt' }), 'NOT_A_DIRECTORY');
    expectError(await callTool(client, 'change_directory', { path: '/' }), 'INVALID_ARGUMENT');
    expectError(await callTool(client, 'change_directory', { path: '/workspace/..' }), 'ACCESS_DENIED');
  });
});

describe('session end over MCP', () => {
  let http: HttpServer;
  let store: InMemorySessionState;
  let baseUrl: string;
  let rootDir: string;

  // Built like startTestServer, but keeping the container to look at the session store.
  beforeAll(async () => {
    rootDir = await fs.realpath(await fs.mkdtemp(join(tmpdir(), 'mcp-fs-session-')));
    const container = buildContainer(
      {
        host: '127.0.0.1',
        port: 0,
        allowedHosts: ['127.0.0.1'],
        logLevel: 'error',
        settings: defaultSettings('workspace'),
        roots: [{ name: 'workspace', path: rootDir, allowedTools: ['*'] }],
      },
      { logger: new RecordingLogger() },
    );
    store = container.get(SESSION_STATE) as InMemorySessionState;
    http = container.get(HttpServer);
    ({ baseUrl } = await http.start());
  });

  afterAll(async () => {
    await http?.stop();
    await fs.rm(rootDir, { recursive: true, force: true });
  });

  it('session state dropped after session end (DELETE via terminateSession)', async () => {
    await writeTree(rootDir, { 'a.txt': 'hello\n', 'sub/': '' });
    const transport = new StreamableHTTPClientTransport(new URL(`${baseUrl}/mcp`));
    const session = new Client({ name: 'session-end-test', version: '1.0.0' });
    await session.connect(transport);
    success(await callTool(session, 'change_directory', { path: 'sub' }));
    success(await callTool(session, 'view', { path: '/workspace/a.txt' }));
    const id = transport.sessionId!;
    expect(await store.workingDirectory(id)).toBe('/workspace/sub');
    expect(await store.fingerprint(id, '/workspace/a.txt')).toBeDefined();

    await transport.terminateSession();
    await session.close();

    expect(await store.workingDirectory(id)).toBeUndefined();
    expect(await store.fingerprint(id, '/workspace/a.txt')).toBeUndefined();
    expect(store.sessionCount).toBe(0);
  });
});
