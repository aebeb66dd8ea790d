import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { Client as ModernClient } from '@modelcontextprotocol/client';
import { modernHttpClient } from '../../support/modern-calls.js';
import { useTestServer } from '../../support/live-server.js';

const modernClient = (url: string) => modernHttpClient(url);

describe('MCP 2026-07-28 over HTTP, beside 2025-era sessions on the same endpoint', () => {
  const live = useTestServer();
  let modern: ModernClient;

  beforeAll(async () => {
    modern = await modernClient(live.server.url);
  });
  afterAll(async () => {
    await modern?.close();
  });

  it('negotiates the modern era with server/discover, no initialize and no session', async () => {
    expect(modern.getProtocolEra()).toBe('modern');
    expect(modern.getServerVersion()?.name).toBe('mcp-filesystem');
  });

  it('lists the same tools as a 2025 session and calls them', async () => {
    const legacyTools = (await live.client.listTools()).tools.map((tool) => tool.name);
    const modernTools = (await modern.listTools()).tools.map((tool) => tool.name);
    expect(modernTools).toEqual(legacyTools);

    await writeFile(join(live.root, 'hello.txt'), 'hello, modern\n');
    const read = await modern.callTool({ name: 'read_file', arguments: { root: 'workspace', path: 'hello.txt' } });
    expect(read.isError).not.toBe(true);
    expect((read.structuredContent as { content: string }).content).toBe('hello, modern\n');

    const written = await modern.callTool({ name: 'write_file', arguments: { root: 'workspace', path: 'out.txt', content: 'from modern\n' } });
    expect(written.isError).not.toBe(true);
    expect(await readFile(join(live.root, 'out.txt'), 'utf8')).toBe('from modern\n');
  });

  it('answers a denial as a tool error naming the root, the path and the reason', async () => {
    const denied = await modern.callTool({ name: 'read_file', arguments: { root: 'workspace', path: '../outside.txt' } });
    expect(denied.isError).toBe(true);
    expect(JSON.stringify(denied.content)).toMatch(/workspace/);
  });

  it('keeps the 2025 session working alongside', async () => {
    const result = await live.client.callTool({ name: 'list_roots', arguments: {} });
    expect(result.isError).not.toBe(true);
  });

  it('answers GET and DELETE from a modern client with 405 (HTTP is POST only)', async () => {
    for (const method of ['GET', 'DELETE']) {
      const response = await fetch(live.server.url, { method, headers: { 'mcp-protocol-version': '2026-07-28', accept: 'text/event-stream, application/json' } });
      expect({ method, status: response.status }).toEqual({ method, status: 405 });
    }
  });
});
