import { mkdtemp, realpath, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { STDIO_DEFAULT_MAX_BUFFER_SIZE } from '@modelcontextprotocol/sdk/shared/stdio.js';
import { decodedContent } from '../support/fixtures.js';
import { callTool, type ToolCallOutcome } from '../support/mcp.js';
import { stdioClient } from '../support/stdio-client.js';

const FILE_BYTES = 10_000_000;

/** Quotes, backslashes, newlines and control characters: text whose JSON form is far longer than its bytes. */
function escapeHeavyText(bytes: number): Buffer {
  const line = 'say "hi" \\ "there"\t\u0001\u0002 "x"\n';
  return Buffer.from(line.repeat(Math.ceil(bytes / line.length)).slice(0, bytes), 'utf8');
}

/** One line of 2000 control characters per line: each costs 6 bytes once escaped. */
function controlLines(lines: number): Buffer {
  return Buffer.from(`x${'\u0001'.repeat(1999)}\n`.repeat(lines), 'utf8');
}

/** What one result costs on the wire, as the client's ReadBuffer counts it. */
function wireBytes(outcome: ToolCallOutcome): number {
  return Buffer.byteLength(JSON.stringify({ content: outcome.content, structuredContent: outcome.structured }));
}

describe('result budget over stdio (default config)', () => {
  let dir: string;
  let client: Client;
  const file = escapeHeavyText(FILE_BYTES);

  beforeAll(async () => {
    dir = await realpath(await mkdtemp(join(tmpdir(), 'mcp-fs-budget-')));
    await writeFile(join(dir, 'big.txt'), file);
    await writeFile(join(dir, 'control.txt'), controlLines(3000));
    client = await stdioClient(dir, 'roots:\n  - { name: workspace, path: ., allowed_tools: ["*"] }\n');
  });

  afterAll(async () => {
    await client?.close();
    await rm(dir, { recursive: true, force: true });
  });

  it('read_file with limit_bytes 10,000,000 returns less, says where to go on, and paging reads the file back exactly', async () => {
    const pages: Buffer[] = [];
    let offset = 0;
    for (;;) {
      const read = await callTool(client, 'read_file', { root: 'workspace', path: 'big.txt', offset_bytes: offset, limit_bytes: FILE_BYTES });
      expect(read.isError).toBe(false);
      expect(wireBytes(read)).toBeLessThan(STDIO_DEFAULT_MAX_BUFFER_SIZE);
      const result = read.structured;
      pages.push(decodedContent(result));
      expect(read.text).toBe(result.content);
      if (!result.truncated) break;
      expect(result.next_offset_bytes).toBe(offset + pages[pages.length - 1].length);
      expect(read.content[1]).toEqual({ type: 'text', text: expect.stringContaining(`offset_bytes ${result.next_offset_bytes}`) });
      offset = result.next_offset_bytes;
    }
    expect(pages.length).toBeGreaterThan(1);
    expect(Buffer.concat(pages).equals(file)).toBe(true);
  });

  it('line reads stop at a whole line within the budget and give the next offset_lines', async () => {
    const read = await callTool(client, 'read_file', { root: 'workspace', path: 'control.txt', offset_lines: 1, limit_lines: 3000 });
    expect(read.isError).toBe(false);
    expect(wireBytes(read)).toBeLessThan(STDIO_DEFAULT_MAX_BUFFER_SIZE);
    const { content, truncated, next_offset_lines: next, lines_total: total } = read.structured;
    expect({ truncated, total }).toEqual({ truncated: true, total: 3000 });
    expect(content.split('\n').length - 1).toBe(next - 1);
  });

  it('view of the whole file stops within the budget with a note naming the next view_range', async () => {
    const view = await callTool(client, 'view', { path: '/workspace/control.txt', view_range: [1, -1] });
    expect(view.isError).toBe(false);
    expect(wireBytes(view)).toBeLessThan(STDIO_DEFAULT_MAX_BUFFER_SIZE);
    expect(view.structured).toMatchObject({ truncated: true, start_line: 1 });
    expect(view.text).toContain(`Continue with view_range [${view.structured.end_line + 1}, -1]`);
  });

  it('grep over lines of control characters stops with truncated=true within the budget', async () => {
    const grep = await callTool(client, 'grep', { root: 'workspace', path: 'control.txt', pattern: '^x', max_results: 10000, context_lines: 5 });
    expect(grep.isError).toBe(false);
    expect(wireBytes(grep)).toBeLessThan(STDIO_DEFAULT_MAX_BUFFER_SIZE);
    expect(grep.structured.truncated).toBe(true);
    // The text block is ripgrep's format (issue 19): one `path:line:text` line per match shown, then the truncated note.
    const lines = grep.text.split('\n');
    expect(lines.filter((line: string) => line.startsWith('control.txt:')).length).toBe(grep.structured.matches.length);
    expect(lines.at(-1)).toMatch(/^\[truncated: /);
  });
});

describe('result budget over stdio (max_full_read_size 10 MiB)', () => {
  let dir: string;
  let client: Client;
  const file = escapeHeavyText(FILE_BYTES);

  beforeAll(async () => {
    dir = await realpath(await mkdtemp(join(tmpdir(), 'mcp-fs-budget-')));
    await writeFile(join(dir, 'big.txt'), file);
    client = await stdioClient(dir, 'max_full_read_size: 10485760\nroots:\n  - { name: workspace, path: ., allowed_tools: ["*"] }\n');
  });

  afterAll(async () => {
    await client?.close();
    await rm(dir, { recursive: true, force: true });
  });

  it('a whole read_file of a file over the budget returns its start and the next offset', async () => {
    const read = await callTool(client, 'read_file', { root: 'workspace', path: 'big.txt' });
    expect(read.isError).toBe(false);
    expect(wireBytes(read)).toBeLessThan(STDIO_DEFAULT_MAX_BUFFER_SIZE);
    const prefix = decodedContent(read.structured);
    expect(read.structured).toMatchObject({ truncated: true, next_offset_bytes: prefix.length, size: FILE_BYTES });
    expect(prefix.equals(file.subarray(0, prefix.length))).toBe(true);
  });

  it('file_read returns whole lines within the budget and the line view_range continues from', async () => {
    const read = await callTool(client, 'file_read', { path: '/workspace/big.txt' });
    expect(read.isError).toBe(false);
    expect(wireBytes(read)).toBeLessThan(STDIO_DEFAULT_MAX_BUFFER_SIZE);
    const { content, truncated, next_line: next } = read.structured;
    expect(truncated).toBe(true);
    expect(file.subarray(0, Buffer.byteLength(content)).toString('utf8')).toBe(content);
    expect(content.split('\n').length - 1).toBe(next - 1);
    expect(read.text).toBe(content);
    expect(read.content[1].text).toContain(`view_range [${next}, -1]`);
    // The client is still connected.
    expect((await callTool(client, 'list_roots', {})).isError).toBe(false);
  });
});
