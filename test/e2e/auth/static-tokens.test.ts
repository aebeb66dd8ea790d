import { callTool } from '../../support/mcp.js';
import { startTestServer, type TestServer } from '../../support/server.js';
import { postMcp, PING, sha256Hex } from '../../support/raw-mcp.js';

const CI_TOKEN = 'ci-token-6f1c2b9e4a7d';
const DOCS_TOKEN = 'docs-token-03be77a1c2';
const READER_TOKEN = 'reader-token-9d3e1f00aa';

describe('auth.mode tokens (static bearer tokens, only their SHA-256 configured)', () => {
  let server: TestServer;

  beforeAll(async () => {
    server = await startTestServer({
      roots: [{ name: 'workspace' }, { name: 'docs', allowedTools: ['read_file', 'write_file', 'list_folder', 'view'] }],
      auth: {
        mode: 'tokens',
        tokens: [
          { name: 'ci-agent', sha256: sha256Hex(CI_TOKEN), readOnly: false },
          { name: 'docs-writer', sha256: sha256Hex(DOCS_TOKEN), roots: ['docs'], readOnly: false },
          { name: 'reader', sha256: sha256Hex(READER_TOKEN), readOnly: true },
        ],
      },
    });
  });

  afterAll(async () => {
    await server.stop();
  });

  it('refuses a request without a token: 401, a JSON-RPC error and a Bearer challenge', async () => {
    const response = await postMcp(server.url);
    expect(response.status).toBe(401);
    expect(response.headers.get('www-authenticate')).toBe('Bearer realm="mcp-filesystem"');
    const body = (await response.json()) as { jsonrpc: string; error: { code: number; message: string }; id: null };
    expect(body).toMatchObject({ jsonrpc: '2.0', id: null, error: { message: 'Unauthorized: a bearer token is required' } });
  });

  it('refuses a wrong token with error="invalid_token", and never logs it', async () => {
    const response = await postMcp(server.url, { bearer: 'not-a-configured-token' });
    expect(response.status).toBe(401);
    expect(response.headers.get('www-authenticate')).toContain('error="invalid_token"');
    const logged = JSON.stringify(server.logger.entries);
    expect(logged).toContain('unknown_token');
    expect(logged).not.toContain('not-a-configured-token');
  });

  it('refuses the hash itself used as a token', async () => {
    expect((await postMcp(server.url, { bearer: sha256Hex(CI_TOKEN) })).status).toBe(401);
  });

  it('serves a valid token through the SDK client, and the call log names the principal and session', async () => {
    const client = await server.connect({ bearer: CI_TOKEN });
    const written = await callTool(client, 'write_file', { root: 'workspace', path: 'a.txt', content: 'hello' });
    expect(written.isError).toBe(false);
    const roots = await callTool(client, 'list_roots', {});
    expect(roots.structured.roots.map((root: { name: string }) => root.name)).toEqual(['workspace', 'docs']);
    const call = server.logger.withMessage('tool call').find((entry) => entry.fields.tool === 'write_file');
    expect(call?.fields).toMatchObject({ principal: 'token:ci-agent', session: expect.stringMatching(/^[0-9a-f-]{36}$/) });
    const logged = JSON.stringify(server.logger.entries);
    for (const secret of [CI_TOKEN, sha256Hex(CI_TOKEN)]) expect(logged).not.toContain(secret);
  });

  it('a token scoped to a root sees only that root; others are UNKNOWN_ROOT, also in the editor namespace', async () => {
    const client = await server.connect({ bearer: DOCS_TOKEN });
    const roots = await callTool(client, 'list_roots', {});
    expect(roots.structured.roots).toEqual([{ name: 'docs', allowed_tools: ['read_file', 'write_file', 'list_folder', 'view'] }]);
    const denied = await callTool(client, 'read_file', { root: 'workspace', path: 'a.txt' });
    expect(denied).toMatchObject({ isError: true });
    expect(denied.text).toMatch(/^UNKNOWN_ROOT: /);
    const view = await callTool(client, 'view', { path: '/workspace/a.txt' });
    expect(view.isError).toBe(true);
    expect(view.text).not.toContain('hello');
    const top = await callTool(client, 'view', { path: '/' });
    expect(top.text).toContain('docs/');
    expect(top.text).not.toContain('workspace');
    expect((await callTool(client, 'write_file', { root: 'docs', path: 'n.md', content: 'x' })).isError).toBe(false);
  });

  it('a token scoped to a root lists and reads only that root as resources too', async () => {
    const client = await server.connect({ bearer: DOCS_TOKEN });
    const { resources } = await client.listResources();
    // The review app holds no data: every principal lists it.
    expect(resources.map((resource) => resource.uri)).toEqual(['mcpfs://docs/', 'ui://mcp-filesystem/review']);
    await expect(client.readResource({ uri: 'mcpfs://workspace/a.txt' })).rejects.toThrow(/UNKNOWN_ROOT/);
    const all = await server.connect({ bearer: CI_TOKEN });
    expect((await all.listResources()).resources.map((resource) => resource.uri).sort()).toEqual(['mcpfs://docs/', 'mcpfs://workspace/', 'ui://mcp-filesystem/review']);
  });

  it('a read-only token gets TOOL_NOT_ALLOWED for every writing tool, and list_roots shows its narrowed allowlists', async () => {
    const client = await server.connect({ bearer: READER_TOKEN });
    const roots = await callTool(client, 'list_roots', {});
    expect(roots.structured.roots).toContainEqual({ name: 'docs', allowed_tools: ['list_folder', 'read_file', 'view'] });
    const writes: Array<[string, Record<string, unknown>]> = [
      ['write_file', { root: 'workspace', path: 'b.txt', content: 'x' }],
      ['remove_file', { root: 'workspace', path: 'a.txt' }],
      ['create_folder', { root: 'workspace', path: 'dir' }],
      ['move', { source_root: 'workspace', source_path: 'a.txt', dest_root: 'workspace', dest_path: 'c.txt' }],
      ['file_write', { path: '/workspace/b.txt', content: 'x' }],
      ['create_file', { path: '/workspace/b.txt', content: 'x' }],
    ];
    for (const [tool, args] of writes) {
      const outcome = await callTool(client, tool, args);
      expect({ tool, text: outcome.text.split(':')[0] }).toEqual({ tool, text: 'TOOL_NOT_ALLOWED' });
    }
    const read = await callTool(client, 'read_file', { root: 'workspace', path: 'a.txt' });
    expect(read.structured.content).toBe('hello');
  });

  it('a session belongs to the principal that opened it: another token on its id gets 404', async () => {
    const opened = await postMcp(server.url, { bearer: CI_TOKEN });
    expect(opened.status).toBe(200);
    const sessionId = opened.headers.get('mcp-session-id') ?? '';
    expect(sessionId).not.toBe('');
    await opened.body?.cancel();
    const hijack = await postMcp(server.url, { bearer: READER_TOKEN, sessionId, body: PING });
    expect(hijack.status).toBe(404);
    const noToken = await postMcp(server.url, { sessionId, body: PING });
    expect(noToken.status).toBe(401);
    const foreignDelete = await fetch(server.url, { method: 'DELETE', headers: { authorization: `Bearer ${READER_TOKEN}`, 'mcp-session-id': sessionId } });
    expect(foreignDelete.status).toBe(404);
    const foreignStream = await fetch(server.url, {
      headers: { authorization: `Bearer ${READER_TOKEN}`, 'mcp-session-id': sessionId, accept: 'text/event-stream' },
    });
    expect(foreignStream.status).toBe(404);
    const owner = await postMcp(server.url, { bearer: CI_TOKEN, sessionId, body: PING });
    expect(owner.status).toBe(200);
    await owner.body?.cancel();
  });
});
