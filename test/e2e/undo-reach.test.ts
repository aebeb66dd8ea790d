import { mkdir, readdir, readFile, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { callTool } from '../support/mcp.js';
import { useTestServer } from '../support/live-server.js';

// Issue 32 §1: a writing tool's own result says when its change cannot be undone, and why; a removed
// tree that holds a link stays undoable but for the link. journal.max_file_bytes is 64 bytes here.
const JOURNAL = join(tmpdir(), `mcp-fs-undo-reach-${process.pid}`);
const BIG = 'a line of a file larger than the journal keeps\n'.repeat(3);

describe('every writing tool says when its change cannot be undone (journal.max_file_bytes 64)', () => {
  const live = useTestServer({ journal: { dir: JOURNAL, maxBytes: 1024 * 1024, maxFileBytes: 64, retentionHours: 1 } });
  afterAll(() => rm(JOURNAL, { recursive: true, force: true }));

  it('remove_folder of a folder with a file and a symlink: undoable partly, the undo brings the file back without the link', async () => {
    await mkdir(join(live.root, 'ltree'));
    await writeFile(join(live.root, 'ltree', 'small.txt'), 'keep me');
    await symlink('small.txt', join(live.root, 'ltree', 'l'));
    const removed = await callTool(live.client, 'remove_folder', { root: 'workspace', path: 'ltree' });
    const reason = 'ltree: an undo brings the folder back without ltree/l (a symbolic link), which it cannot recreate';
    expect(removed.structured).toEqual({ path: 'ltree', removed: true, undoable: 'partly', reason });
    expect(JSON.parse(removed.text)).toEqual(removed.structured);

    const [change] = (await callTool(live.client, 'list_changes', { path: 'ltree', root: 'workspace' })).structured.changes;
    expect(change).toMatchObject({ op: 'rmdir', undoable: true, not_restorable: reason.slice('ltree: '.length) });
    const undone = await callTool(live.client, 'undo_changes', { ids: [change.id] });
    expect(undone.structured.results).toEqual([expect.objectContaining({ outcome: 'restored' })]);
    expect(await readFile(join(live.root, 'ltree', 'small.txt'), 'utf8')).toBe('keep me');
    expect(await readdir(join(live.root, 'ltree'))).toEqual(['small.txt']);
  });

  it.each([
    ['write_file', { root: 'workspace', path: 'w.txt', content: 'small' }],
    ['write_file', { root: 'workspace', path: 'w.txt', content: 'appended\n', mode: 'append' }],
    ['patch_file', { root: 'workspace', path: 'w.txt', patch: '@@ -1,1 +1,1 @@\n-a line of a file larger than the journal keeps\n+patched\n' }],
    ['remove_file', { root: 'workspace', path: 'w.txt' }],
    ['copy', { source_root: 'workspace', source_path: 'small.txt', dest_root: 'workspace', dest_path: 'w.txt' }],
    ['move', { source_root: 'workspace', source_path: 'small.txt', dest_root: 'workspace', dest_path: 'w.txt' }],
    ['file_write', { path: '/workspace/w.txt', content: 'small' }],
    ['create_file', { path: '/workspace/w.txt', content: 'small' }],
    ['str_replace', { path: '/workspace/w.txt', old_str: 'a line of a file larger than the journal keeps\na', new_str: 'b' }],
  ])('%s over a file past journal.max_file_bytes answers undoable false with the reason, in its text too', async (tool, args) => {
    await writeFile(join(live.root, 'w.txt'), BIG);
    await writeFile(join(live.root, 'small.txt'), 'small');
    if (tool === 'create_file' || tool === 'str_replace') expect((await callTool(live.client, 'view', { path: '/workspace/w.txt' })).isError).toBe(false);
    const result = await callTool(live.client, tool, args);
    expect(result.isError).toBe(false);
    expect(result.structured).toMatchObject({ undoable: false, reason: expect.stringContaining(`w.txt: the file was larger than the journal keeps (${BIG.length} bytes > journal.max_file_bytes 64)`) });
    expect(result.text).toContain(result.structured.reason);
    // A change within the limit says nothing of the kind.
    const small = await callTool(live.client, 'write_file', { root: 'workspace', path: 'small.txt', content: 'still small' });
    expect(small.structured).not.toHaveProperty('undoable');
  });

  it("remove_file of a symlink answers undoable false: an undo cannot recreate a link", async () => {
    await symlink('small.txt', join(live.root, 'link'));
    const removed = await callTool(live.client, 'remove_file', { root: 'workspace', path: 'link' });
    expect(removed.structured).toEqual({ path: 'link', removed: true, undoable: false, reason: 'link: a symbolic link cannot be recreated by an undo' });
  });

  it('create_folder is undoable whatever it makes, and its description says so plainly', async () => {
    const made = await callTool(live.client, 'create_folder', { root: 'workspace', path: 'made/deeper' });
    expect(made.structured).toEqual({ path: 'made/deeper', created: true, already_existed: false });
    const tools = (await live.client.listTools()).tools;
    expect(tools.find((tool) => tool.name === 'create_folder')?.description).toMatch(/ Undoable \(undo_changes\)\.$/);
    expect(tools.find((tool) => tool.name === 'remove_file')?.description).toContain('Undoable (undo_changes); not a link, special file or file past journal.max_file_bytes');
  });
});
