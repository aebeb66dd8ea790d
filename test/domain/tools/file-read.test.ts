import { domainError, editorWorld } from './editor-harness.js';

describe('file_read', () => {
  it('Read existing file: the contents as a string', async () => {
    const world = editorWorld();
    world.fs.seedFile('/ws/src/app.ts', 'export const x = 1;\n');
    const outcome = await world.fileRead.execute({ sessionId: 's1', path: '/workspace/src/app.ts' });
    expect(outcome.text).toBe('export const x = 1;\n');
    expect(outcome.result).toEqual({ path: '/workspace/src/app.ts', content: 'export const x = 1;\n', size: 20, binary: false });
  });

  it('Read non-existent file: NOT_FOUND', async () => {
    const error = await domainError(editorWorld().fileRead.execute({ sessionId: 's1', path: 'nope.txt' }));
    expect(error.toClientText()).toBe('NOT_FOUND: file not found: /workspace/nope.txt');
  });

  it('Read file outside repo: ACCESS_DENIED for .. and for a link out, without the content', async () => {
    const world = editorWorld();
    world.fs.seedSymlink('/ws/escape', '/outside');
    for (const path of ['../outside/secret.txt', 'escape/secret.txt', '/workspace/../../outside/secret.txt']) {
      const error = await domainError(world.fileRead.execute({ sessionId: 's1', path }));
      expect(error.code).toBe('ACCESS_DENIED');
      expect(error.message).not.toContain('TOP SECRET');
    }
  });

  it('an absolute host path is unknown in the namespace (NOT_FOUND)', async () => {
    expect((await domainError(editorWorld().fileRead.execute({ sessionId: 's1', path: '/outside/secret.txt' }))).code).toBe('NOT_FOUND');
  });

  it('Accept absolute path within repo: /workspace/./a/../b.txt is normalised and read', async () => {
    const world = editorWorld();
    world.fs.seedFile('/ws/b.txt', 'b\n');
    expect((await world.fileRead.execute({ sessionId: 's1', path: '/workspace/./a/../b.txt' })).result.path).toBe('/workspace/b.txt');
  });

  it('refuses files over max_full_read_size and points to view', async () => {
    const world = editorWorld({ settings: { maxFullReadSize: 8 } });
    world.fs.seedFile('/ws/a.txt', '0123456789\n');
    const error = await domainError(world.fileRead.execute({ sessionId: 's1', path: 'a.txt' }));
    expect(error.code).toBe('FILE_TOO_LARGE');
    expect(error.message).toContain('use view with view_range');
  });

  it('returns no content for a binary file', async () => {
    const world = editorWorld();
    world.fs.seedFile('/ws/a.bin', Uint8Array.from([1, 0, 2]));
    const outcome = await world.fileRead.execute({ sessionId: 's1', path: 'a.bin' });
    expect(outcome.result).toEqual({ path: '/workspace/a.bin', content: '', size: 3, binary: true });
    expect(outcome.text).toMatch(/^Binary file \(3 bytes\)/);
  });

  it('refuses a directory', async () => {
    const world = editorWorld();
    world.fs.seedDirectory('/ws/d');
    expect((await domainError(world.fileRead.execute({ sessionId: 's1', path: 'd' }))).code).toBe('IS_A_DIRECTORY');
  });

  it('a full read counts as a view for the edit gate', async () => {
    const world = editorWorld();
    world.fs.seedFile('/ws/a.txt', 'hello\n');
    await world.fileRead.execute({ sessionId: 's1', path: 'a.txt' });
    await world.strReplace.execute({ sessionId: 's1', path: 'a.txt', old_str: 'hello', new_str: 'bye' });
    expect(world.fs.readText('/ws/a.txt')).toBe('bye\n');
  });
});
