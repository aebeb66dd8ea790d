import { domainError, fileToolsWorld } from './file-tools-harness.js';

describe('CreateFolder', () => {
  it('E2E-025: creates nested parents', async () => {
    const { fs, createFolder } = fileToolsWorld();
    expect(await createFolder.execute({ root: 'workspace', path: 'a/b/c' })).toEqual({ path: 'a/b/c', created: true, already_existed: false });
    expect(fs.kindOf('/ws/a/b/c')).toBe('directory');
  });

  it('E2E-026: is idempotent on an existing directory and keeps its content', async () => {
    const { fs, createFolder } = fileToolsWorld();
    fs.seedFile('/ws/existing_dir/kept.txt', 'kept');
    expect(await createFolder.execute({ root: 'workspace', path: 'existing_dir' })).toEqual({
      path: 'existing_dir',
      created: true,
      already_existed: true,
    });
    expect(fs.readText('/ws/existing_dir/kept.txt')).toBe('kept');
  });

  it('succeeds on the root itself', async () => {
    const { createFolder } = fileToolsWorld();
    expect(await createFolder.execute({ root: 'workspace', path: '.' })).toEqual({ path: '.', created: true, already_existed: true });
  });

  it('E2E-027: a file in the way is reported as such and left alone', async () => {
    const { fs, createFolder } = fileToolsWorld();
    fs.seedFile('/ws/conflict', 'i am a file');
    expect((await domainError(createFolder.execute({ root: 'workspace', path: 'conflict' }))).toClientText()).toBe(
      'NOT_A_DIRECTORY: path exists as a file: conflict (root: workspace)',
    );
    expect(fs.readText('/ws/conflict')).toBe('i am a file');
  });

  it('a file in the middle of the path is refused', async () => {
    const { fs, createFolder } = fileToolsWorld();
    fs.seedFile('/ws/file', 'x');
    expect((await domainError(createFolder.execute({ root: 'workspace', path: 'file/sub' }))).code).toBe('NOT_A_DIRECTORY');
  });

  it('creates below an in-root link to a directory', async () => {
    const { fs, createFolder } = fileToolsWorld();
    fs.seedDirectory('/ws/real');
    fs.seedSymlink('/ws/alias', 'real');
    await createFolder.execute({ root: 'workspace', path: 'alias/new' });
    expect(fs.kindOf('/ws/real/new')).toBe('directory');
  });

  it('E2E-064: never creates through a link that leaves the root', async () => {
    const { fs, createFolder } = fileToolsWorld();
    fs.seedSymlink('/ws/escape', '/outside');
    expect((await domainError(createFolder.execute({ root: 'workspace', path: 'escape/new' }))).code).toBe('ACCESS_DENIED');
    expect(fs.list('/outside')).toEqual(['secret.txt']);
  });

  it('E2E-066: is refused on a root that does not allow it', async () => {
    const { fs, createFolder } = fileToolsWorld();
    expect((await domainError(createFolder.execute({ root: 'readonly', path: 'd' }))).toClientText()).toBe(
      'TOOL_NOT_ALLOWED: tool create_folder not allowed on root readonly',
    );
    expect(fs.list('/ro')).toEqual([]);
  });
});
