import { domainError, fileToolsWorld } from './file-tools-harness.js';

describe('WriteFile', () => {
  it('E2E-014: overwrite (the default) replaces the content and reports the bytes written', async () => {
    const { fs, writeFile } = fileToolsWorld();
    fs.seedFile('/ws/existing.txt', 'old content that was longer');
    expect(await writeFile.execute({ root: 'workspace', path: 'existing.txt', content: 'new content' })).toEqual({
      path: 'existing.txt',
      size: 11,
      mode: 'overwrite',
    });
    expect(fs.readText('/ws/existing.txt')).toBe('new content');
  });

  it('counts size in UTF-8 bytes', async () => {
    const { writeFile } = fileToolsWorld();
    expect((await writeFile.execute({ root: 'workspace', path: 'u.txt', content: 'héllo' })).size).toBe(6);
  });

  it('overwrite keeps the permissions of the file it replaces', async () => {
    const { fs, writeFile } = fileToolsWorld();
    fs.seedFile('/ws/run.sh', 'echo old\n', { permissions: 0o755 });
    await writeFile.execute({ root: 'workspace', path: 'run.sh', content: 'echo new\n', mode: 'overwrite' });
    expect(fs.permissionsOf('/ws/run.sh')).toBe(0o755);
  });

  it('a failed overwrite leaves the old content in place', async () => {
    const { fs, writeFile } = fileToolsWorld();
    fs.seedFile('/ws/keep.txt', 'precious');
    fs.failNextWrite('/ws/keep.txt');
    expect((await domainError(writeFile.execute({ root: 'workspace', path: 'keep.txt', content: 'junk' }))).code).toBe('IO_ERROR');
    expect(fs.readText('/ws/keep.txt')).toBe('precious');
  });

  it('E2E-015: append adds to the end', async () => {
    const { fs, writeFile } = fileToolsWorld();
    fs.seedFile('/ws/log.txt', 'line1\n');
    expect(await writeFile.execute({ root: 'workspace', path: 'log.txt', content: 'line2\n', mode: 'append' })).toEqual({
      path: 'log.txt',
      size: 6,
      mode: 'append',
    });
    expect(fs.readText('/ws/log.txt')).toBe('line1\nline2\n');
  });

  it('append creates a missing file', async () => {
    const { fs, writeFile } = fileToolsWorld();
    await writeFile.execute({ root: 'workspace', path: 'fresh.log', content: 'first\n', mode: 'append' });
    expect(fs.readText('/ws/fresh.log')).toBe('first\n');
  });

  it('E2E-016: create_only creates an absent file', async () => {
    const { fs, writeFile } = fileToolsWorld();
    await writeFile.execute({ root: 'workspace', path: 'new.txt', content: 'created', mode: 'create_only' });
    expect(fs.readText('/ws/new.txt')).toBe('created');
  });

  it('E2E-017: create_only refuses an existing file and leaves it alone', async () => {
    const { fs, writeFile } = fileToolsWorld();
    fs.seedFile('/ws/config/app.yaml', 'original');
    const error = await domainError(writeFile.execute({ root: 'workspace', path: 'config/app.yaml', content: 'nope', mode: 'create_only' }));
    expect(error.toClientText()).toBe(
      'ALREADY_EXISTS: file already exists: config/app.yaml; use overwrite mode to replace (root: workspace)',
    );
    expect(fs.readText('/ws/config/app.yaml')).toBe('original');
  });

  it('create_only answers ALREADY_EXISTS for a directory too ("if anything is there"); overwrite answers IS_A_DIRECTORY', async () => {
    const { fs, writeFile } = fileToolsWorld();
    fs.seedDirectory('/ws/dir');
    const error = await domainError(writeFile.execute({ root: 'workspace', path: 'dir', content: 'x', mode: 'create_only' }));
    expect(error.toClientText()).toBe('ALREADY_EXISTS: file already exists: dir (a directory; create_only never replaces anything) (root: workspace)');
    expect((await domainError(writeFile.execute({ root: 'workspace', path: 'dir', content: 'x' }))).code).toBe('IS_A_DIRECTORY');
  });

  it('has no size limit of its own, as its description says: max_file_size bounds the editor tools only', async () => {
    const { fs, writeFile } = fileToolsWorld({ maxFileSize: 10 });
    expect(await writeFile.execute({ root: 'workspace', path: 'big.txt', content: 'x'.repeat(100) })).toMatchObject({ size: 100 });
    expect(fs.readText('/ws/big.txt')).toHaveLength(100);
  });

  it('create_only counts a dangling link as existing', async () => {
    const { fs, writeFile } = fileToolsWorld();
    fs.seedSymlink('/ws/dangling', 'nowhere.txt');
    expect((await domainError(writeFile.execute({ root: 'workspace', path: 'dangling', content: 'x', mode: 'create_only' }))).code).toBe(
      'ALREADY_EXISTS',
    );
    expect(fs.exists('/ws/nowhere.txt')).toBe(false);
  });

  it('E2E-018: creates missing parent directories', async () => {
    const { fs, writeFile } = fileToolsWorld();
    await writeFile.execute({ root: 'workspace', path: 'deep/nested/dir/file.txt', content: 'deep' });
    expect(fs.kindOf('/ws/deep/nested/dir')).toBe('directory');
    expect(fs.readText('/ws/deep/nested/dir/file.txt')).toBe('deep');
  });

  it('E2E-074: rejects an unknown mode, listing the valid ones, and writes nothing', async () => {
    const { fs, writeFile } = fileToolsWorld();
    const error = await domainError(writeFile.execute({ root: 'workspace', path: 'mode.txt', content: 'x', mode: 'truncate' }));
    expect(error.toClientText()).toBe(
      'INVALID_ARGUMENT: invalid write mode: truncate; valid modes: overwrite, append, create_only (root: workspace)',
    );
    expect(fs.exists('/ws/mode.txt')).toBe(false);
  });

  it('does not mistake inherited object keys for modes', async () => {
    const { writeFile } = fileToolsWorld();
    expect((await domainError(writeFile.execute({ root: 'workspace', path: 'x', content: 'x', mode: 'toString' }))).code).toBe(
      'INVALID_ARGUMENT',
    );
  });

  it.each(['dir', '.', 'link-to-dir'])('refuses to write to the directory %j', async (path) => {
    const { fs, writeFile } = fileToolsWorld();
    fs.seedDirectory('/ws/dir');
    fs.seedSymlink('/ws/link-to-dir', 'dir');
    const error = await domainError(writeFile.execute({ root: 'workspace', path, content: 'x' }));
    expect(error.code).toBe('IS_A_DIRECTORY');
    expect(error.message).toContain('write_file writes files');
  });

  it('writes through an in-root link to its target', async () => {
    const { fs, writeFile } = fileToolsWorld();
    fs.seedFile('/ws/real.txt', 'old');
    fs.seedSymlink('/ws/alias.txt', 'real.txt');
    await writeFile.execute({ root: 'workspace', path: 'alias.txt', content: 'new' });
    expect(fs.readText('/ws/real.txt')).toBe('new');
    expect(fs.kindOf('/ws/alias.txt')).toBe('symlink');
  });

  it('E2E-064: never writes through a link that leaves the root', async () => {
    const { fs, writeFile } = fileToolsWorld();
    fs.seedSymlink('/ws/escape', '/outside/secret.txt');
    expect((await domainError(writeFile.execute({ root: 'workspace', path: 'escape', content: 'pwned' }))).code).toBe('ACCESS_DENIED');
    expect(fs.readText('/outside/secret.txt')).toBe('TOP SECRET\n');
  });

  it('E2E-066: a root without write_file in its allowlist is refused before anything happens', async () => {
    const { fs, writeFile } = fileToolsWorld();
    const error = await domainError(writeFile.execute({ root: 'readonly', path: 'app.yaml', content: 'x: 1' }));
    expect(error.toClientText()).toBe('TOOL_NOT_ALLOWED: tool write_file not allowed on root readonly');
    expect(fs.list('/ro')).toEqual([]);
  });

  it('E2E-072: an unknown root is named', async () => {
    const { writeFile } = fileToolsWorld();
    expect((await domainError(writeFile.execute({ root: 'nonexistent', path: 'a', content: 'x', mode: 'truncate' }))).toClientText()).toBe(
      'UNKNOWN_ROOT: unknown root: nonexistent',
    );
  });
});
