import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Client as ModernClient } from '@modelcontextprotocol/client';
import { modernStdioClient, stdioClient } from '../../support/stdio-client.js';
import { callTool } from '../../support/mcp.js';

describe('MCP 2026-07-28 over stdio: the first message picks the protocol', () => {
  let dir: string;
  let workspace: string;
  let config: string;

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'mcpfs-modern-stdio-'));
    workspace = join(dir, 'workspace');
    await mkdir(workspace);
    await writeFile(join(workspace, 'hello.txt'), 'hello over stdio\n');
    config = ['log_level: error', 'roots:', '  - name: workspace', `    path: ${JSON.stringify(workspace)}`, '    allowed_tools: ["*"]', `journal: { dir: ${JSON.stringify(join(dir, 'journal'))} }`, ''].join('\n');
  });
  afterAll(() => rm(dir, { recursive: true, force: true }));

  async function exercise(client: ModernClient, file: string): Promise<void> {
    expect(client.getProtocolEra()).toBe('modern');
    expect((await client.listTools()).tools.map((tool) => tool.name)).toContain('read_file');
    const read = await client.callTool({ name: 'read_file', arguments: { root: 'workspace', path: 'hello.txt' } });
    expect((read.structuredContent as { content: string }).content).toBe('hello over stdio\n');
    const written = await client.callTool({ name: 'write_file', arguments: { root: 'workspace', path: file, content: 'modern\n' } });
    expect(written.isError).not.toBe(true);
    expect(await readFile(join(workspace, file), 'utf8')).toBe('modern\n');
  }

  it('a client pinned to 2026-07-28 is served without initialize', async () => {
    const client = await modernStdioClient(dir, config);
    try {
      await exercise(client, 'pinned.txt');
    } finally {
      await client.close();
    }
  });

  it("a client in 'auto' mode probes with server/discover and picks the modern era", async () => {
    const client = await modernStdioClient(dir, config, 'auto');
    try {
      await exercise(client, 'auto.txt');
    } finally {
      await client.close();
    }
  });

  it('a 2025 client opening with initialize gets the session it always had', async () => {
    const client = await stdioClient(dir, config);
    try {
      expect(client.getServerVersion()?.name).toBe('mcp-filesystem');
      const read = await callTool(client, 'read_file', { root: 'workspace', path: 'hello.txt' });
      expect(read.structured.content).toBe('hello over stdio\n');
    } finally {
      await client.close();
    }
  });
});
