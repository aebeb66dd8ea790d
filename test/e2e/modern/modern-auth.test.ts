import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { Client as ModernClient } from '@modelcontextprotocol/client';
import { modernHttpClient } from '../../support/modern-calls.js';
import { sha256Hex } from '../../support/raw-mcp.js';
import { startTestServer, type TestServer } from '../../support/server.js';

const DOCS_TOKEN = 'docs-token-7a0c55e2b1';
const READER_TOKEN = 'reader-token-1f2e3d4c5b';

/** The same bearer guard, Host/Origin guard and grants for 2026-07-28 requests as for 2025 sessions. */
describe('2026-07-28 requests behind auth.mode tokens', () => {
  let server: TestServer;
  const clients: ModernClient[] = [];

  async function connect(bearer?: string): Promise<ModernClient> {
    const client = await modernHttpClient(server.url, bearer, 'modern-auth');
    clients.push(client);
    return client;
  }

  beforeAll(async () => {
    server = await startTestServer({
      roots: [{ name: 'workspace' }, { name: 'docs' }],
      auth: {
        mode: 'tokens',
        tokens: [
          { name: 'docs-writer', sha256: sha256Hex(DOCS_TOKEN), roots: ['docs'], readOnly: false },
          { name: 'reader', sha256: sha256Hex(READER_TOKEN), readOnly: true },
        ],
      },
    });
    await writeFile(join(server.rootPath('workspace'), 'secret.txt'), 'workspace only\n');
  });
  afterAll(async () => {
    await Promise.all(clients.map((client) => client.close()));
    await server.stop();
  });

  it('refuses a modern request without a token (401), as it refuses a 2025 one', async () => {
    const response = await fetch(server.url, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', 'mcp-protocol-version': '2026-07-28' },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'server/discover', params: { _meta: { 'io.modelcontextprotocol/protocolVersion': '2026-07-28' } } }),
    });
    expect(response.status).toBe(401);
    await expect(connect()).rejects.toBeDefined();
  });

  it("serves each token with its own grant: roots it was given, read-only when it is", async () => {
    const docs = await connect(DOCS_TOKEN);
    const roots = await docs.callTool({ name: 'list_roots', arguments: {} });
    expect((roots.structuredContent as { roots: { name: string }[] }).roots.map((root) => root.name)).toEqual(['docs']);
    const outside = await docs.callTool({ name: 'read_file', arguments: { root: 'workspace', path: 'secret.txt' } });
    expect(outside.isError).toBe(true);
    expect(JSON.stringify(outside.content)).not.toContain('workspace only');

    const reader = await connect(READER_TOKEN);
    const write = await reader.callTool({ name: 'write_file', arguments: { root: 'workspace', path: 'x.txt', content: 'no' } });
    expect(write.isError).toBe(true);
    const call = server.logger.withMessage('tool call').find((entry) => entry.fields.principal === 'token:docs-writer');
    expect(call).toBeDefined();
  });
});
