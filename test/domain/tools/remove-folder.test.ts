import { domainError, fileToolsWorld } from './file-tools-harness.js';

describe('RemoveFolder', () => {
  it('E2E-028: removes a directory tree and nothing beside it', async () => {
    const { fs, removeFolder } = fileToolsWorld();
    fs.seedFile('/ws/dir/one.txt', '1');
    fs.seedFile('/ws/dir/sub/deeper/three.txt', '3');
    fs.seedDirectory('/ws/dir/empty');
    fs.seedFile('/ws/sibling.txt', 's');
    expect(await removeFolder.execute({ root: 'workspace', path: 'dir' })).toEqual({ path: 'dir', removed: true });
    expect(fs.list('/ws')).toEqual(['sibling.txt']);
  });

  it.each(['', '.', '/', 'a/..'])('E2E-029: refuses the root itself given as %j', async (path) => {
    const { fs, removeFolder } = fileToolsWorld();
    fs.seedFile('/ws/guard.txt', 'still here');
    expect((await domainError(removeFolder.execute({ root: 'workspace', path }))).toClientText()).toBe(
      'INVALID_ARGUMENT: cannot remove root directory (root: workspace)',
    );
    expect(fs.readText('/ws/guard.txt')).toBe('still here');
  });

  it('E2E-030: names a missing directory', async () => {
    const { removeFolder } = fileToolsWorld();
    expect((await domainError(removeFolder.execute({ root: 'workspace', path: 'nonexistent' }))).toClientText()).toBe(
      'NOT_FOUND: directory not found: nonexistent (root: workspace)',
    );
  });

  it('E2E-031: refuses a file and points to remove_file', async () => {
    const { fs, removeFolder } = fileToolsWorld();
    fs.seedFile('/ws/not_a_dir.txt', 'file');
    expect((await domainError(removeFolder.execute({ root: 'workspace', path: 'not_a_dir.txt' }))).toClientText()).toBe(
      'NOT_A_DIRECTORY: path is a file, not a directory: not_a_dir.txt; use remove_file (root: workspace)',
    );
    expect(fs.readText('/ws/not_a_dir.txt')).toBe('file');
  });

  it('E2E-069: removes links inside the tree without touching their targets', async () => {
    const { fs, removeFolder } = fileToolsWorld();
    fs.seedFile('/ws/dir/own.txt', 'inside');
    fs.seedSymlink('/ws/dir/escape', '/outside');
    fs.seedFile('/ws/kept/file.txt', 'kept');
    fs.seedSymlink('/ws/dir/sibling-link', '../kept');
    await removeFolder.execute({ root: 'workspace', path: 'dir' });
    expect(fs.exists('/ws/dir')).toBe(false);
    expect(fs.readText('/outside/secret.txt')).toBe('TOP SECRET\n');
    expect(fs.readText('/ws/kept/file.txt')).toBe('kept');
  });

  it('refuses a link to a directory instead of emptying its target', async () => {
    const { fs, removeFolder } = fileToolsWorld();
    fs.seedFile('/ws/real/file.txt', 'x');
    fs.seedSymlink('/ws/alias', 'real');
    expect((await domainError(removeFolder.execute({ root: 'workspace', path: 'alias' }))).toClientText()).toBe(
      'NOT_A_DIRECTORY: path is a symbolic link, not a directory: alias; use remove_file to remove the link (root: workspace)',
    );
    expect(fs.readText('/ws/real/file.txt')).toBe('x');
    expect(fs.kindOf('/ws/alias')).toBe('symlink');
  });

  it('removes a directory reached through an in-root parent link', async () => {
    const { fs, removeFolder } = fileToolsWorld();
    fs.seedFile('/ws/real/sub/file.txt', 'x');
    fs.seedSymlink('/ws/alias', 'real');
    await removeFolder.execute({ root: 'workspace', path: 'alias/sub' });
    expect(fs.list('/ws/real')).toEqual([]);
  });

  it('E2E-064: refuses a path through a link that leaves the root', async () => {
    const { fs, removeFolder } = fileToolsWorld();
    fs.seedSymlink('/ws/escape', '/');
    expect((await domainError(removeFolder.execute({ root: 'workspace', path: 'escape/outside' }))).code).toBe('ACCESS_DENIED');
    expect(fs.exists('/outside/secret.txt')).toBe(true);
  });

  it('E2E-066: is refused on a root that does not allow it', async () => {
    const { fs, removeFolder } = fileToolsWorld();
    fs.seedDirectory('/ro/d');
    expect((await domainError(removeFolder.execute({ root: 'readonly', path: 'd' }))).toClientText()).toBe(
      'TOOL_NOT_ALLOWED: tool remove_folder not allowed on root readonly',
    );
    expect(fs.exists('/ro/d')).toBe(true);
  });
});
