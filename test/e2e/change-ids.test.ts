import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { useTestServer } from '../support/live-server.js';
import { callTool } from '../support/mcp.js';
import { writeTree } from '../support/fixtures.js';

// Issue 32 (8): a change id is checked, never read as "everything".
const live = useTestServer();

describe('change ids through the real server', () => {
  it('malformed ids are INVALID_ARGUMENT, unknown ones NOT_FOUND, and nothing is undone', async () => {
    await writeTree(live.root, { 'ids/a.txt': 'seed\n' });
    const written = await callTool(live.client, 'write_file', { root: 'workspace', path: 'ids/a.txt', content: 'changed\n' });
    expect(written.isError).toBe(false);
    const calls: [string, Record<string, unknown>, string][] = [
      ['undo_changes', { since_id: '0' }, 'INVALID_ARGUMENT'],
      ['undo_changes', { ids: ['garbage'] }, 'INVALID_ARGUMENT'],
      ['list_changes', { before_id: 'garbage' }, 'INVALID_ARGUMENT'],
      ['undo_changes', { since_id: 'zzzzzzzzzzzzzzzzz' }, 'NOT_FOUND'],
      ['list_changes', { before_id: 'zzzzzzzzzzzzzzzzz' }, 'NOT_FOUND'],
    ];
    for (const [tool, args, code] of calls) {
      const outcome = await callTool(live.client, tool, args);
      expect([tool, args, outcome.isError, outcome.text]).toEqual([tool, args, true, expect.stringContaining(code)]);
    }
    expect(await readFile(join(live.root, 'ids/a.txt'), 'utf8')).toBe('changed\n');
  });
});
