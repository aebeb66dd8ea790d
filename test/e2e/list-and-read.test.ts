import { mkdirSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { sharedParallelLstat } from '../../src/adapters/outbound/node-fs/parallel-lstat.js';
import { useTestServer } from '../support/live-server.js';
import { startTestServer } from '../support/server.js';
import { callTool } from '../support/mcp.js';
import { decodedContent, expectError, ok, writeTree } from '../support/fixtures.js';

const ISO_8601 = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?(Z|[+-]\d{2}:\d{2})$/;

const live = useTestServer();

describe('list_folder', () => {
  it('E2E-004: list_folder — happy path', async () => {
    const own = await startTestServer();
    try {
      await writeTree(own.rootPath('workspace'), { 'b.txt': 'bbbb', 'a.txt': 'a', 'sub/inner.txt': 'x' });
      const listed = ok(await callTool(await own.connect(), 'list_folder', { root: 'workspace', path: '.' }));

      expect(listed.count).toBe(3);
      expect(listed.entries.map((e: { name: string; type: string }) => [e.name, e.type])).toEqual([
        ['a.txt', 'file'],
        ['b.txt', 'file'],
        ['sub', 'directory'],
      ]);
      for (const entry of listed.entries) {
        expect(entry).toEqual(expect.objectContaining({ name: expect.any(String), type: expect.any(String), size: expect.any(Number) }));
        expect(entry.modified_at).toMatch(ISO_8601);
      }
      expect(listed.entries[0].size).toBe(1);
      expect(listed.entries[1].size).toBe(4);
    } finally {
      await own.stop();
    }
  });

  it('list_folder of 1,500 entries: every one with its kind and size, in code point order, its lstats shared with the helper thread', async () => {
    const big = join(live.root, 'big');
    mkdirSync(big);
    const names: string[] = [];
    for (let i = 0; i < 1500; i += 1) {
      const name = `entry-${String(1500 - i).padStart(4, '0')}`;
      names.push(name);
      if (i % 100 === 7) mkdirSync(join(big, name));
      else if (i % 100 === 9) symlinkSync('entry-0001', join(big, name));
      else writeFileSync(join(big, name), 'x'.repeat(i % 97));
    }
    const lstats = sharedParallelLstat();
    await lstats.ready();
    const helpedBefore = lstats.helped;
    let result = await callTool(live.client, 'list_folder', { root: 'workspace', path: 'big' });
    // The helper may wake after every chunk is taken; a few listings give it its chance.
    for (let round = 0; round < 20 && lstats.helped === helpedBefore; round += 1) result = await callTool(live.client, 'list_folder', { root: 'workspace', path: 'big' });
    const listed = ok(result);

    expect(lstats.helped).toBeGreaterThan(helpedBefore);
    expect(listed.count).toBe(1500);
    expect(listed.entries.map((entry: { name: string }) => entry.name)).toEqual([...names].sort());
    const byName = new Map(listed.entries.map((entry: { name: string }) => [entry.name, entry]));
    names.forEach((name, i) => {
      const kind = i % 100 === 7 ? 'directory' : i % 100 === 9 ? 'symlink' : 'file';
      expect(byName.get(name)).toMatchObject({ name, type: kind, ...(kind === 'file' ? { size: i % 97 } : {}) });
    });
    // The text block is the structured content's JSON, made once and sent as is.
    expect(JSON.parse(result.text)).toEqual(listed);
  });

  it('E2E-005: list_folder — empty directory', async () => {
    await writeTree(live.root, { 'empty/': '' });
    const listed = ok(await callTool(live.client, 'list_folder', { root: 'workspace', path: 'empty' }));
    expect(listed.entries).toEqual([]);
    expect(listed.count).toBe(0);
  });

  it('E2E-006: list_folder — path is a file', async () => {
    await writeTree(live.root, { 'data.txt': 'data' });
    expectError(await callTool(live.client, 'list_folder', { root: 'workspace', path: 'data.txt' }), 'NOT_A_DIRECTORY', 'data.txt');
  });
});

describe('read_file', () => {
  it('E2E-007: read_file — full read under threshold', async () => {
    const content = `${'0123456789'.repeat(9)}abcdefghi\n`;
    expect(Buffer.byteLength(content)).toBe(100);
    await writeTree(live.root, { 'small.txt': content });

    const read = ok(await callTool(live.client, 'read_file', { root: 'workspace', path: 'small.txt' }));
    expect(read).toMatchObject({ content, size: 100, truncated: false, encoding: 'utf-8', binary: false });
  });

  it('E2E-008: read_file — full read exceeds threshold', async () => {
    const small = await startTestServer({ settings: { maxFullReadSize: 100 } });
    try {
      await writeTree(small.rootPath('workspace'), { 'large.txt': 'x'.repeat(500) });
      const outcome = await callTool(await small.connect(), 'read_file', { root: 'workspace', path: 'large.txt' });
      expectError(outcome, 'FILE_TOO_LARGE', /500/, /100/, 'offset');
      expect(outcome.text).not.toContain('x'.repeat(50));
    } finally {
      await small.stop();
    }
  });

  it('E2E-009: read_file — byte-based partial read', async () => {
    const bytes = Uint8Array.from({ length: 256 }, (_, i) => i);
    await writeTree(live.root, { 'data.bin': bytes });

    const read = ok(await callTool(live.client, 'read_file', { root: 'workspace', path: 'data.bin', offset_bytes: 10, limit_bytes: 20 }));
    expect(decodedContent(read)).toEqual(Buffer.from(bytes.subarray(10, 30)));
    expect(read.size).toBe(256);
  });

  it('E2E-010: read_file — line-based partial read', async () => {
    const lines = Array.from({ length: 100 }, (_, i) => `line ${i + 1}\n`).join('');
    await writeTree(live.root, { 'lines.txt': lines });

    const read = ok(await callTool(live.client, 'read_file', { root: 'workspace', path: 'lines.txt', offset_lines: 50, limit_lines: 5 }));
    expect(read.content.replace(/\n$/, '').split('\n')).toEqual(['line 50', 'line 51', 'line 52', 'line 53', 'line 54']);
    expect(read.lines_total).toBe(100);
  });

  it('E2E-011: read_file — mixed byte+line parameters rejected', async () => {
    await writeTree(live.root, { 'file.txt': 'one\ntwo\n' });
    const outcome = await callTool(live.client, 'read_file', { root: 'workspace', path: 'file.txt', offset_bytes: 0, offset_lines: 1 });
    expectError(outcome, 'INVALID_ARGUMENT', /byte/i, /line/i, /mutually exclusive/i);
  });

  it('read_file of a missing file, or of one whose folder is missing: NOT_FOUND naming the file', async () => {
    for (const path of ['ghost.txt', 'no-such-dir/ghost.txt']) {
      expectError(await callTool(live.client, 'read_file', { root: 'workspace', path }), 'NOT_FOUND', `file not found: ${path}`, 'workspace');
    }
  });

  it('E2E-012: read_file — offset beyond file end', async () => {
    await writeTree(live.root, { 'short.txt': 'one\ntwo\nthree\nfour\nfive\n' });
    const read = ok(await callTool(live.client, 'read_file', { root: 'workspace', path: 'short.txt', offset_lines: 100, limit_lines: 10 }));
    expect(read.content).toBe('');
    expect(read.lines_total).toBe(5);
  });

  it('E2E-013: read_file — binary file detection', async () => {
    const bytes = Buffer.concat([Buffer.from('\x89PNG\r\n\x1a\n'), Buffer.alloc(16), Buffer.from('IHDR'), Buffer.alloc(200, 7)]);
    await writeTree(live.root, { 'image.bin': bytes });

    const read = ok(await callTool(live.client, 'read_file', { root: 'workspace', path: 'image.bin', offset_bytes: 0, limit_bytes: 100 }));
    expect(read.binary).toBe(true);
    expect(read.encoding).toBe('base64');
    expect(decodedContent(read)).toEqual(bytes.subarray(0, 100));
  });
});
