import { domainError, editorWorld } from './editor-harness.js';

describe('file_write', () => {
  it('Write new file: created with its content and parents, confirmed', async () => {
    const world = editorWorld();
    const result = await world.fileWrite.execute({ sessionId: 's1', path: 'deep/er/new.txt', content: 'hi\n' });
    expect(result).toEqual({ path: '/workspace/deep/er/new.txt', size: 3, created: true });
    expect(world.fs.readText('/ws/deep/er/new.txt')).toBe('hi\n');
    expect(world.fs.permissionsOf('/ws/deep/er/new.txt')).toBe(0o644);
    expect(world.fs.permissionsOf('/ws/deep/er')).toBe(0o755);
  });

  it('Overwrite existing file: replaced, confirmed, mode kept', async () => {
    const world = editorWorld();
    world.fs.seedFile('/ws/a.sh', 'old\n', { permissions: 0o755 });
    const result = await world.fileWrite.execute({ sessionId: 's1', path: '/workspace/a.sh', content: 'new\n' });
    expect(result).toEqual({ path: '/workspace/a.sh', size: 4, created: false });
    expect(world.fs.readText('/ws/a.sh')).toBe('new\n');
    expect(world.fs.permissionsOf('/ws/a.sh')).toBe(0o755);
  });

  it('Write outside repo: ACCESS_DENIED and nothing is written', async () => {
    const world = editorWorld();
    world.fs.seedSymlink('/ws/escape', '/outside');
    for (const path of ['../outside/evil.txt', 'escape/evil.txt']) {
      expect((await domainError(world.fileWrite.execute({ sessionId: 's1', path, content: 'x' }))).code).toBe('ACCESS_DENIED');
    }
    expect(world.fs.list('/outside')).toEqual(['secret.txt']);
  });

  it('refuses content over max_file_size, a directory, and a root without file_write', async () => {
    const world = editorWorld({ settings: { maxFileSize: 2 } });
    world.fs.seedDirectory('/ws/d');
    expect((await domainError(world.fileWrite.execute({ sessionId: 's1', path: 'a.txt', content: 'abc' }))).code).toBe('FILE_TOO_LARGE');
    // Refused before it is encoded, yet the message names its UTF-8 size: 1 + 2 + 4 bytes, and 2 bytes in one UTF-16 unit over the limit.
    expect((await domainError(world.fileWrite.execute({ sessionId: 's1', path: 'a.txt', content: 'aé😀' }))).toClientText()).toContain('is 7 bytes');
    expect((await domainError(world.fileWrite.execute({ sessionId: 's1', path: 'a.txt', content: 'aé' }))).toClientText()).toContain('is 3 bytes');
    expect((await domainError(world.fileWrite.execute({ sessionId: 's1', path: 'd', content: 'a' }))).code).toBe('IS_A_DIRECTORY');
    expect((await domainError(world.fileWrite.execute({ sessionId: 's1', path: '/readonly/a', content: 'a' }))).toClientText()).toBe(
      'TOOL_NOT_ALLOWED: tool file_write not allowed on root readonly',
    );
  });

  it('the written version counts as seen by the session', async () => {
    const world = editorWorld();
    await world.fileWrite.execute({ sessionId: 's1', path: 'a.txt', content: 'one\n' });
    await world.strReplace.execute({ sessionId: 's1', path: 'a.txt', old_str: 'one', new_str: 'two' });
    expect(world.fs.readText('/ws/a.txt')).toBe('two\n');
  });
});
