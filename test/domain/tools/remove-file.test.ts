import { domainError, fileToolsWorld } from './file-tools-harness.js';

describe('RemoveFile', () => {
  it('E2E-019: removes one file and nothing else', async () => {
    const { fs, removeFile } = fileToolsWorld();
    fs.seedFile('/ws/to_delete.txt', 'bye');
    fs.seedFile('/ws/keep.txt', 'stay');
    expect(await removeFile.execute({ root: 'workspace', path: 'to_delete.txt' })).toEqual({ path: 'to_delete.txt', removed: true });
    expect(fs.list('/ws')).toEqual(['keep.txt']);
  });

  it('E2E-020: names a missing file', async () => {
    const { removeFile } = fileToolsWorld();
    expect((await domainError(removeFile.execute({ root: 'workspace', path: 'ghost.txt' }))).toClientText()).toBe(
      'NOT_FOUND: file not found: ghost.txt (root: workspace)',
    );
  });

  it('E2E-021: refuses a directory and points to remove_folder', async () => {
    const { fs, removeFile } = fileToolsWorld();
    fs.seedFile('/ws/mydir/inside.txt', 'x');
    expect((await domainError(removeFile.execute({ root: 'workspace', path: 'mydir' }))).toClientText()).toBe(
      'IS_A_DIRECTORY: path is a directory: mydir; use remove_folder (root: workspace)',
    );
    expect(fs.readText('/ws/mydir/inside.txt')).toBe('x');
  });

  it('refuses the root itself', async () => {
    const { removeFile } = fileToolsWorld();
    expect((await domainError(removeFile.execute({ root: 'workspace', path: '/' }))).code).toBe('IS_A_DIRECTORY');
  });

  it.each([
    ['an in-root file', 'real.txt'],
    ['an in-root directory', 'dir'],
    ['a place outside the root', '/outside'],
    ['nothing', 'missing'],
  ])('removes a link to %s, never its target', async (_what, linkText) => {
    const { fs, removeFile } = fileToolsWorld();
    fs.seedFile('/ws/real.txt', 'real');
    fs.seedFile('/ws/dir/inside.txt', 'inside');
    fs.seedSymlink('/ws/link', linkText);
    await removeFile.execute({ root: 'workspace', path: 'link' });
    expect(fs.exists('/ws/link')).toBe(false);
    expect(fs.readText('/ws/real.txt')).toBe('real');
    expect(fs.readText('/ws/dir/inside.txt')).toBe('inside');
    expect(fs.readText('/outside/secret.txt')).toBe('TOP SECRET\n');
  });

  it('E2E-064: refuses a path through a link that leaves the root', async () => {
    const { fs, removeFile } = fileToolsWorld();
    fs.seedSymlink('/ws/escape', '/outside');
    expect((await domainError(removeFile.execute({ root: 'workspace', path: 'escape/secret.txt' }))).code).toBe('ACCESS_DENIED');
    expect(fs.exists('/outside/secret.txt')).toBe(true);
  });

  it('E2E-066: is refused on a root that does not allow it', async () => {
    const { fs, removeFile } = fileToolsWorld();
    fs.seedFile('/ro/a.txt', 'a');
    expect((await domainError(removeFile.execute({ root: 'readonly', path: 'a.txt' }))).toClientText()).toBe(
      'TOOL_NOT_ALLOWED: tool remove_file not allowed on root readonly',
    );
    expect(fs.exists('/ro/a.txt')).toBe(true);
  });
});
