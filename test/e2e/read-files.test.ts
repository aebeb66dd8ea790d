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
      expect(outcome.text).toContain('[truncated: continue with offset_bytes');
    } finally {
      await own.stop();
    }
  });
});
