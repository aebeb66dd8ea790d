import { mkdtemp, readFile, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { callTool } from '../support/mcp.js';
import { useTestServer } from '../support/live-server.js';

// Issue 33 §5: undo_changes of [X, Y] where X restores and Y's path now goes through a link leading
// outside the root answers X restored and Y denied, never one ACCESS_DENIED for the whole call.
const JOURNAL = join(tmpdir(), `mcp-fs-undo-partial-${process.pid}`);

describe('undo_changes reports a partial undo per change', () => {
  const live = useTestServer({ journal: { dir: JOURNAL, maxBytes: 1024 * 1024, maxFileBytes: 64 * 1024, retentionHours: 1 } });
  let outside: string;
  beforeAll(async () => {
    outside = await mkdtemp(join(tmpdir(), 'mcp-fs-undo-partial-outside-'));
  });
  afterAll(async () => {
    await rm(JOURNAL, { recursive: true, force: true });
    await rm(outside, { recursive: true, force: true });
  });

  it('restores X and answers Y denied (root, path, why) when Y\'s folder became a link leading outside; the output validates against the schema', async () => {
    // The SDK client validates structuredContent against each tool's output schema once it has listed them.
    await live.client.listTools();
    await writeFile(join(live.root, 'x.txt'), 'x before');
    expect((await callTool(live.client, 'write_file', { root: 'workspace', path: 'd/y.txt', content: 'y' })).isError).toBe(false);
    expect((await callTool(live.client, 'write_file', { root: 'workspace', path: 'x.txt', content: 'x after' })).isError).toBe(false);
    const { changes } = (await callTool(live.client, 'list_changes', {})).structured;
    const id = (path: string) => changes.find((change: { path: string }) => change.path === path).id;
    await rm(join(live.root, 'd'), { recursive: true });
    await writeFile(join(outside, 'y.txt'), 'not yours');
    await symlink(outside, join(live.root, 'd'));

    const undone = await callTool(live.client, 'undo_changes', { ids: [id('x.txt'), id('d/y.txt')] });
    expect(undone.isError).toBe(false);
    expect(undone.structured.results).toEqual([
      { id: id('x.txt'), op: 'modify', root: 'workspace', path: 'x.txt', outcome: 'restored' },
      { id: id('d/y.txt'), op: 'create', root: 'workspace', path: 'd/y.txt', outcome: 'denied', reason: 'path resolves outside root boundary: d/y.txt (root: workspace)' },
    ]);
    expect(await readFile(join(live.root, 'x.txt'), 'utf8')).toBe('x before');
    expect(await readFile(join(outside, 'y.txt'), 'utf8')).toBe('not yours');
    expect(JSON.stringify(undone)).not.toContain(outside);
  });
});
