import { promises as fs } from 'node:fs';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { InMemorySessionState } from '../../src/adapters/outbound/in-memory-session-state.js';
import { TOKENS } from '../../src/composition/tokens.js';
import { callTool } from '../support/mcp.js';
import { useTestServer } from '../support/live-server.js';
import { expectError, success, writeTree } from '../support/fixtures.js';

/** The view-before-edit gate, the working directory and session end, over Streamable HTTP. */

const live = useTestServer({ roots: [{ name: 'workspace' }, { name: 'readonly', allowedTools: ['read_file'] }] });

const view = (args: Record<string, unknown>, on = live.client) => callTool(on, 'view', args);
const strReplace = (args: Record<string, unknown>, on = live.client) => callTool(on, 'str_replace', args);

describe('the view-before-edit gate over MCP', () => {
  it('Edit rejected without prior view', async () => {
    await writeTree(live.root, { 'g/a.txt': 'hello\n' });
    expectError(await strReplace({ path: '/workspace/g/a.txt', old_str: 'hello', new_str: 'bye' }), 'FILE_NOT_VIEWED', '/workspace/g/a.txt');
    expect(await fs.readFile(join(live.root, 'g/a.txt'), 'utf8')).toBe('hello\n');
  });

  it('a view in one session does not open the file to another (two clients)', async () => {
    await writeTree(live.root, { 'g/shared.txt': 'hello\n' });
    const second = await live.server.connect();
    success(await view({ path: '/workspace/g/shared.txt' }));
    expectError(await strReplace({ path: '/workspace/g/shared.txt', old_str: 'hello', new_str: 'bye' }, second), 'FILE_NOT_VIEWED');
    success(await strReplace({ path: '/workspace/g/shared.txt', old_str: 'hello', new_str: 'bye' }));
  });

  it('FILE_CHANGED_SINCE_VIEW after an outside write; a fresh view clears it', async () => {
    await writeTree(live.root, { 'g/changing.txt': 'version 1\n' });
    success(await view({ path: '/workspace/g/changing.txt' }));
    await fs.writeFile(join(live.root, 'g/changing.txt'), 'version 2\n');
    expectError(await strReplace({ path: '/workspace/g/changing.txt', old_str: 'version', new_str: 'v' }), 'FILE_CHANGED_SINCE_VIEW', 'view it again');
    expect(await fs.readFile(join(live.root, 'g/changing.txt'), 'utf8')).toBe('version 2\n');
    success(await view({ path: '/workspace/g/changing.txt' }));
    success(await strReplace({ path: '/workspace/g/changing.txt', old_str: 'version', new_str: 'v' }));
  });

  it("an edit by another session counts as a change for this one, not for the editor's own session", async () => {
    await writeTree(live.root, { 'g/both.txt': 'one two\n' });
    const second = await live.server.connect();
    success(await view({ path: '/workspace/g/both.txt' }));
    success(await view({ path: '/workspace/g/both.txt' }, second));
    success(await strReplace({ path: '/workspace/g/both.txt', old_str: 'one', new_str: '1' }, second));
    success(await strReplace({ path: '/workspace/g/both.txt', old_str: 'two', new_str: '2' }, second));
    expectError(await strReplace({ path: '/workspace/g/both.txt', old_str: 'two', new_str: 'II' }), 'FILE_CHANGED_SINCE_VIEW');
  });
});

describe('change_directory over MCP', () => {
  it('is always available, even on a root that allows none of the namespace tools', async () => {
    const other = await live.server.connect();
    expect(success(await callTool(other, 'change_directory', { path: '/readonly' })).structured).toEqual({ cwd: '/readonly' });
    expectError(await view({ path: '.' }, other), 'TOOL_NOT_ALLOWED', 'tool view not allowed on root readonly');
  });

  it('must name an existing directory inside a root', async () => {
    await writeTree(live.root, { 'cd/file.txt': 'x' });
    expectError(await callTool(live.client, 'change_directory', { path: '/workspace/cd/nope' }), 'NOT_FOUND', '/workspace/cd/nope');
    expectError(await callTool(live.client, 'change_directory', { path: '/workspace/cd/file.txt' }), 'NOT_A_DIRECTORY');
    expectError(await callTool(live.client, 'change_directory', { path: '/' }), 'INVALID_ARGUMENT');
    expectError(await callTool(live.client, 'change_directory', { path: '/workspace/..' }), 'ACCESS_DENIED');
  });
});

describe('session end over MCP', () => {
  let store: InMemorySessionState;
  const own = useTestServer({ configure: (container) => (store = container.get(TOKENS.SessionState) as InMemorySessionState) });

  it('session state dropped after session end (DELETE via terminateSession)', async () => {
    await writeTree(own.root, { 'a.txt': 'hello\n', 'sub/': '' });
    const sessionsBefore = store.sessionCount;
    const transport = new StreamableHTTPClientTransport(new URL(own.server.url));
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
    expect(store.sessionCount).toBe(sessionsBefore);
  });
});
