import { mkdir, mkdtemp, readFile, realpath, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { callTool } from '../support/mcp.js';

// Issue 32 §5: two stdio servers the user runs share the default journal. Each connection has its
// own session, so `session: "this"` and an undo by path or since_id stay in their own conversation.
const MAIN = join(process.cwd(), 'dist', 'main.js');

let dir: string;
let served: string;
const clients: Client[] = [];

beforeAll(async () => {
  dir = await realpath(await mkdtemp(join(tmpdir(), 'mcp-fs-e2e-stdio-sessions-')));
  served = join(dir, 'work');
  await mkdir(served);
});

afterAll(async () => {
  await Promise.all(clients.splice(0).map((client) => client.close()));
  await rm(dir, { recursive: true, force: true });
});

async function stdioServer(name: string): Promise<Client> {
  const env = { PATH: process.env.PATH ?? '', MCP_FS_LOG_LEVEL: 'error', MCP_FS_JOURNAL_DIR: join(dir, 'journal') };
  const client = new Client({ name, version: '1' });
  await client.connect(new StdioClientTransport({ command: process.execPath, args: [MAIN, served], env, stderr: 'ignore' }));
  clients.push(client);
  return client;
}

describe('stdio servers sharing one journal (child processes)', () => {
  it("each connection is its own session: session this lists only its changes, and a path or since_id undo reaches only them unless session all", async () => {
    const first = await stdioServer('first');
    const second = await stdioServer('second');
    await callTool(first, 'write_file', { root: 'work', path: 'start.txt', content: 'first conversation, first write' });
    await callTool(first, 'write_file', { root: 'work', path: 'a.txt', content: 'first conversation' });
    await callTool(second, 'write_file', { root: 'work', path: 'b.txt', content: 'second conversation' });

    const everyone = (await callTool(second, 'list_changes', {})).structured.changes;
    expect(everyone.map((change: { path: string }) => change.path)).toEqual(['b.txt', 'a.txt', 'start.txt']);
    const [own, theirs] = everyone;
    expect(own.session).toMatch(/^stdio-[0-9a-f]{12}$/);
    expect(theirs.session).toMatch(/^stdio-[0-9a-f]{12}$/);
    expect(own.session).not.toBe(theirs.session);
    expect(own.principal).toBe('local');
    const mine = (await callTool(second, 'list_changes', { session: 'this' })).structured.changes;
    expect(mine.map((change: { path: string }) => change.path)).toEqual(['b.txt']);

    const start = everyone[2].id;
    const preview = await callTool(second, 'undo_changes', { since_id: start, dry_run: true });
    expect(preview.structured.results.map((result: { path: string }) => result.path)).toEqual(['b.txt']);
    expect((await callTool(second, 'undo_changes', { root: 'work', path: 'a.txt' })).structured.results).toEqual([]);
    expect(await readFile(join(served, 'a.txt'), 'utf8')).toBe('first conversation');

    const all = await callTool(second, 'undo_changes', { root: 'work', path: 'a.txt', session: 'all' });
    expect(all.structured.results).toEqual([expect.objectContaining({ path: 'a.txt', outcome: 'restored' })]);
    await expect(readFile(join(served, 'a.txt'), 'utf8')).rejects.toThrow();
  });
});
