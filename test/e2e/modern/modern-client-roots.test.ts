import { mkdir, mkdtemp, realpath, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { Client as ModernClient } from '@modelcontextprotocol/client';
import { StdioClientTransport as ModernStdioTransport } from '@modelcontextprotocol/client/stdio';

const MAIN = join(process.cwd(), 'dist', 'main.js');
const NO_ROOTS = 'NO_ROOTS: the client shared no folders; share a folder in the client or start the server with DIR arguments';

/**
 * A 2026-07-28 client has no roots/list channel: the server (stdio, no DIR, no config) asks for the
 * client's roots in an input-required result on the first tool call, and the client answers by retrying.
 */
describe('client roots for 2026-07-28 clients (input-required)', () => {
  let dir: string;
  const clients: ModernClient[] = [];

  beforeAll(async () => {
    dir = await realpath(await mkdtemp(join(tmpdir(), 'mcpfs-modern-roots-')));
    await mkdir(join(dir, 'app'));
    await writeFile(join(dir, 'app', 'a.txt'), 'from app\n');
  });
  afterAll(async () => {
    await Promise.all(clients.map((client) => client.close()));
    await rm(dir, { recursive: true, force: true });
  });

  async function start(roots: string[] | undefined): Promise<{ client: ModernClient; listed: () => number }> {
    const transport = new ModernStdioTransport({ command: process.execPath, args: [MAIN], env: { PATH: process.env.PATH ?? '', HOME: dir, MCP_FS_LOG_LEVEL: 'error' }, stderr: 'ignore' });
    const client = new ModernClient({ name: 'modern-roots', version: '1' }, { versionNegotiation: { mode: { pin: '2026-07-28' } }, ...(roots ? { capabilities: { roots: {} } } : {}) });
    let listed = 0;
    if (roots) {
      client.setRequestHandler('roots/list', () => {
        listed += 1;
        return { roots: roots.map((uri) => ({ uri })) };
      });
    }
    await client.connect(transport);
    clients.push(client);
    return { client, listed: () => listed };
  }

  it('serves the folders the client shares, asked for once, on the first tool call', async () => {
    const { client, listed } = await start([pathToFileURL(join(dir, 'app')).href]);
    const first = await client.callTool({ name: 'read_file', arguments: { root: 'app', path: 'a.txt' } });
    expect((first.structuredContent as { content: string }).content).toBe('from app\n');
    const roots = await client.callTool({ name: 'list_roots', arguments: {} });
    expect((roots.structuredContent as { roots: { name: string }[] }).roots.map((root) => root.name)).toEqual(['app']);
    expect(listed()).toBe(1);
    // Confined like a configured root.
    const outside = await client.callTool({ name: 'read_file', arguments: { root: 'app', path: '../x.txt' } });
    expect(outside.isError).toBe(true);
  });

  it('a client without the roots capability is never asked and gets NO_ROOTS', async () => {
    const { client } = await start(undefined);
    const result = await client.callTool({ name: 'read_file', arguments: { root: 'app', path: 'a.txt' } });
    expect(result.isError).toBe(true);
    expect(result.content).toEqual([{ type: 'text', text: NO_ROOTS }]);
  });
});
