import { jest } from '@jest/globals';
import { domainError as editorError, editorWorld } from './editor-harness.js';
import { domainError, fileToolsWorld } from './file-tools-harness.js';

describe('dry_run on write_file, patch_file and create_file', () => {
  it('write_file overwrite: nothing written, the diff of what it would do; a new file diffs from nothing', async () => {
    const { fs, writeFile } = fileToolsWorld();
    fs.seedFile('/ws/a.txt', 'one\ntwo\n');
    const result = await writeFile.execute({ root: 'workspace', path: 'a.txt', content: 'one\n2\n', dry_run: true });
    expect(result).toEqual({ path: 'a.txt', size: 6, mode: 'overwrite', dry_run: true, diff: '--- a/a.txt\n+++ b/a.txt\n@@ -1,2 +1,2 @@\n one\n-two\n+2\n' });
    expect(fs.readText('/ws/a.txt')).toBe('one\ntwo\n');
    const fresh = await writeFile.execute({ root: 'workspace', path: 'new/b.txt', content: 'hi\n', dry_run: true });
    expect(fresh).toMatchObject({ diff: '--- a/new/b.txt\n+++ b/new/b.txt\n@@ -0,0 +1,1 @@\n+hi\n' });
    expect(fs.exists('/ws/new')).toBe(false);
  });

  it('write_file: dry_run with append or create_only is refused; checks run as for the real call', async () => {
    const { fs, writeFile } = fileToolsWorld();
    fs.seedDirectory('/ws/dir');
    fs.seedFile('/ws/bin', new Uint8Array([0, 1, 2]));
    expect((await domainError(writeFile.execute({ root: 'workspace', path: 'x', content: 'a', mode: 'append', dry_run: true }))).code).toBe('INVALID_ARGUMENT');
    expect((await domainError(writeFile.execute({ root: 'workspace', path: 'dir', content: 'a', dry_run: true }))).code).toBe('IS_A_DIRECTORY');
    expect((await domainError(writeFile.execute({ root: 'workspace', path: '../outside/secret.txt', content: 'a', dry_run: true }))).code).toBe('ACCESS_DENIED');
    expect((await domainError(writeFile.execute({ root: 'readonly', path: 'x', content: 'a', dry_run: true }))).code).toBe('TOOL_NOT_ALLOWED');
    expect(await writeFile.execute({ root: 'workspace', path: 'bin', content: 'text\n', dry_run: true })).toMatchObject({ diff: expect.stringMatching(/^Files a\/bin and b\/bin differ/) });
    expect(fs.readBytes('/ws/bin')).toEqual(new Uint8Array([0, 1, 2]));
  });

  it('patch_file: the diff of the patched file, nothing written, no lock taken; a failing hunk fails the same way', async () => {
    const { fs, patchFile } = fileToolsWorld();
    fs.seedFile('/ws/c.txt', 'a\nb\nc\n');
    const lock = jest.spyOn(fs, 'lockFile');
    const patch = '@@ -1,3 +1,3 @@\n a\n-b\n+B\n c\n';
    const result = await patchFile.execute({ root: 'workspace', path: 'c.txt', patch, dry_run: true });
    // The dry run predicts where each hunk lands, as the real call reports it.
    expect(result).toEqual({
      path: 'c.txt',
      hunks_applied: 1,
      created: false,
      hunks: [{ stated_line: 1, applied_line: 1, offset: 0 }],
      dry_run: true,
      diff: '--- a/c.txt\n+++ b/c.txt\n@@ -1,3 +1,3 @@\n a\n-b\n+B\n c\n',
    });
    expect(fs.readText('/ws/c.txt')).toBe('a\nb\nc\n');
    expect(lock).not.toHaveBeenCalled();
    expect((await domainError(patchFile.execute({ root: 'workspace', path: 'c.txt', patch: '@@ -1 +1 @@\n-zzz\n+y\n', dry_run: true }))).code).toBe('PATCH_FAILED');
    const created = await patchFile.execute({ root: 'workspace', path: 'n.txt', patch: '@@ -0,0 +1 @@\n+new\n', dry_run: true });
    expect(created).toMatchObject({ created: true, diff: '--- a/n.txt\n+++ b/n.txt\n@@ -0,0 +1,1 @@\n+new\n' });
    expect(fs.exists('/ws/n.txt')).toBe(false);
  });

  it('create_file: an overwrite passes the gate and shows the diff, writes nothing and records no view', async () => {
    const world = editorWorld();
    world.fs.seedFile('/ws/e.txt', 'old\n');
    expect((await editorError(world.createFile.execute({ sessionId: 's1', path: '/workspace/e.txt', content: 'new\n', dry_run: true }))).code).toBe('FILE_NOT_VIEWED');
    await world.view.execute({ sessionId: 's1', path: '/workspace/e.txt' });
    const recorded = jest.spyOn(world.store, 'recordFingerprint');
    const outcome = await world.createFile.execute({ sessionId: 's1', path: '/workspace/e.txt', content: 'new\n', dry_run: true });
    const diff = '--- a/workspace/e.txt\n+++ b/workspace/e.txt\n@@ -1,1 +1,1 @@\n-old\n+new\n';
    expect(outcome.result).toEqual({ path: '/workspace/e.txt', size: 4, created: false, dry_run: true, diff });
    expect(outcome.text).toBe(`Dry run: nothing written. Would overwrite /workspace/e.txt (4 bytes).\n${diff}`);
    expect(world.fs.readText('/ws/e.txt')).toBe('old\n');
    expect(recorded).not.toHaveBeenCalled();
    const fresh = await world.createFile.execute({ sessionId: 's2', path: '/workspace/d/n.txt', content: 'x\n', dry_run: true });
    expect(fresh.result).toMatchObject({ created: true, diff: '--- a/workspace/d/n.txt\n+++ b/workspace/d/n.txt\n@@ -0,0 +1,1 @@\n+x\n' });
    expect(world.fs.exists('/ws/d')).toBe(false);
  });

  it('counts the diff against max_result_bytes: past it the result says diff_omitted and stays within the limit (issue 32)', async () => {
    const { fs, writeFile, patchFile } = fileToolsWorld({ maxResultBytes: 3000 });
    fs.seedFile('/ws/a.txt', 'old\n');
    const long = `${'a fairly long line of new text\n'.repeat(100)}`;
    const result = await writeFile.execute({ root: 'workspace', path: 'a.txt', content: long, dry_run: true });
    expect(result).toEqual({ path: 'a.txt', size: long.length, mode: 'overwrite', dry_run: true, diff_omitted: expect.stringContaining('too large for max_result_bytes') });
    expect(JSON.stringify(result).length).toBeLessThanOrEqual(3000);
    const fits = await writeFile.execute({ root: 'workspace', path: 'a.txt', content: 'new\n'.repeat(300), dry_run: true });
    expect(fits).toHaveProperty('diff');
    expect(JSON.stringify(fits).length).toBeLessThanOrEqual(3000);
    const patched = await patchFile.execute({ root: 'workspace', path: 'n.txt', patch: `@@ -0,0 +1,100 @@\n${'+a fairly long line of new text\n'.repeat(100)}`, dry_run: true });
    expect(patched).toMatchObject({ dry_run: true, diff_omitted: expect.stringContaining('max_result_bytes') });
  });
});
