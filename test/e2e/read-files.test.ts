import { useTestServer } from '../support/live-server.js';
import { callTool } from '../support/mcp.js';
import { writeTree } from '../support/fixtures.js';
import { startTestServer } from '../support/server.js';

const live = useTestServer();

describe('read_files over HTTP with the SDK client', () => {
  it('reads several files in one call: structured entries in order, and a head-style text block', async () => {
    await writeTree(live.root, { 'rf/a.txt': 'alpha\n', 'rf/b.txt': 'beta' });
    const outcome = await callTool(live.client, 'read_files', { root: 'workspace', paths: ['rf/a.txt', 'rf/missing.txt', 'rf/b.txt'] });
    expect(outcome.isError).toBe(false);
    expect(outcome.structured.files).toEqual([
      { path: 'rf/a.txt', content: 'alpha\n', size: 6, truncated: false, encoding: 'utf-8', binary: false },
      { path: 'rf/missing.txt', error: { code: 'NOT_FOUND', message: expect.stringContaining('rf/missing.txt') } },
      { path: 'rf/b.txt', content: 'beta', size: 4, truncated: false, encoding: 'utf-8', binary: false },
    ]);
    expect(outcome.text).toMatch(/^==> rf\/a\.txt <==\nalpha\n\n==> rf\/missing\.txt <==\nERROR NOT_FOUND: .*\n\n==> rf\/b\.txt <==\nbeta\n$/);
  });

  it('isError only when every path failed; host paths never show', async () => {
    const outcome = await callTool(live.client, 'read_files', { root: 'workspace', paths: ['nope1', '../../etc/passwd'] });
    expect(outcome.isError).toBe(true);
    expect(outcome.structured.files.map((entry: { error: { code: string } }) => entry.error.code)).toEqual(['NOT_FOUND', 'ACCESS_DENIED']);
    expect(outcome.text).not.toContain(live.root);
  });

  it('one max_result_bytes budget: truncated with the next offset, then RESULT_BUDGET', async () => {
    const own = await startTestServer({ settings: { maxResultBytes: 16 * 1024 } });
    try {
      await writeTree(own.rootPath('workspace'), { 'big.txt': 'x'.repeat(40 * 1024), 'after.txt': 'after\n' });
      const outcome = await callTool(await own.connect(), 'read_files', { root: 'workspace', paths: ['big.txt', 'after.txt'] });
      expect(outcome.structured.files[0]).toMatchObject({ path: 'big.txt', truncated: true, next_offset_bytes: expect.any(Number) });
      expect(outcome.structured.files[1].error.code).toBe('RESULT_BUDGET');
      // One line past the budget: only a byte window continues it, and read_file is the tool that takes one.
      expect(outcome.text).toContain('[truncated: continue with read_file offset_bytes');
    } finally {
      await own.stop();
    }
  });

  it('a whole text file cut by the budget hints offset_lines, and read_files continues it from there', async () => {
    const own = await startTestServer({ settings: { maxResultBytes: 16 * 1024 } });
    try {
      const text = Array.from({ length: 4000 }, (_, i) => `line ${i + 1}\n`).join('');
      await writeTree(own.rootPath('workspace'), { 'lines.txt': text });
      const client = await own.connect();
      const first = await callTool(client, 'read_files', { root: 'workspace', paths: ['lines.txt'] });
      const next = first.structured.files[0].next_offset_lines;
      expect(first.text).toContain(`[truncated: continue with offset_lines ${next} (4000 lines in all)]`);
      const rest = await callTool(client, 'read_files', { root: 'workspace', paths: ['lines.txt'], offset_lines: next });
      expect(rest.isError).toBe(false);
      expect(rest.structured.files[0].content.startsWith(`line ${next}\n`)).toBe(true);
    } finally {
      await own.stop();
    }
  });

  it('offset_lines without limit_lines: a file cut at max_full_read_size leaves the budget to the files after it', async () => {
    const own = await startTestServer({ settings: { maxFullReadSize: 5000, maxResultBytes: 200_000 } });
    try {
      await writeTree(own.rootPath('workspace'), { 'long.txt': 'forty-ish bytes of text on every line.\n'.repeat(1000), 'after.txt': 'a\nb\n' });
      const outcome = await callTool(await own.connect(), 'read_files', { root: 'workspace', paths: ['long.txt', 'after.txt'], offset_lines: 1 });
      expect(outcome.structured.files[0]).toMatchObject({ truncated: true, next_offset_lines: expect.any(Number) });
      expect(outcome.structured.files[1]).toMatchObject({ path: 'after.txt', content: 'a\nb\n', truncated: false });
    } finally {
      await own.stop();
    }
  });
});
