import type { EntryStat } from '../../src/domain/ports/file-system.port.js';
import type { RootPath } from '../../src/domain/roots.js';
import { domainError, editorWorld } from './tools/editor-harness.js';

function stat(size: number, modifiedAtMs: number): EntryStat {
  return { name: 'a.txt', kind: 'file', size, modifiedAt: new Date(modifiedAtMs), permissions: 0o644, uid: 1000, gid: 1000, inode: 1 };
}

describe('EditSession working directory', () => {
  it('starts in /<default root>', async () => {
    const world = editorWorld();
    expect(await world.sessions.for('s1').workingDirectory()).toBe('/workspace');
  });

  it('starts in / when no default root is configured', async () => {
    const world = editorWorld({ settings: { defaultRoot: '' } });
    expect(await world.sessions.for('s1').workingDirectory()).toBe('/');
  });

  it('keeps a changed directory per session', async () => {
    const world = editorWorld();
    const root = world.namespace.roots[0];
    await world.sessions.for('s1').changeDirectory({ root, segments: ['project'] });
    expect(await world.sessions.for('s1').workingDirectory()).toBe('/workspace/project');
    expect(await world.sessions.for('s2').workingDirectory()).toBe('/workspace');
  });
});

describe('EditSession.fileKey', () => {
  const world = editorWorld();
  const root = world.namespace.roots[0];
  const at = (...segments: string[]): RootPath => ({ root, segments });
  world.fs.seedFile('/ws/real/a.txt', 'a\n');
  world.fs.seedSymlink('/ws/dirlink', 'real');
  world.fs.seedSymlink('/ws/filelink', 'real/a.txt');
  world.fs.seedSymlink('/ws/chain', 'dirlink/a.txt');
  world.fs.seedSymlink('/ws/absolute', '/ws/real/a.txt');
  world.fs.seedSymlink('/ws/escape', '/outside/secret.txt');
  const session = world.sessions.for('s1');

  it('is the namespace path of a plain file', async () => {
    expect(await session.fileKey(at('real', 'a.txt'))).toBe('/workspace/real/a.txt');
  });

  it.each([
    ['a link to the file', ['filelink']],
    ['a link to a parent directory', ['dirlink', 'a.txt']],
    ['a chain of links', ['chain']],
    ['an absolute in-root link', ['absolute']],
  ])('follows %s to the target', async (_, segments) => {
    expect(await session.fileKey(at(...segments))).toBe('/workspace/real/a.txt');
  });

  it('keys a missing file lexically (below a followed directory link)', async () => {
    expect(await session.fileKey(at('dirlink', 'new.txt'))).toBe('/workspace/real/new.txt');
  });

  it('keys a link that leaves the root by its own path (the edit itself will be refused)', async () => {
    expect(await session.fileKey(at('escape'))).toBe('/workspace/escape');
  });
});

describe('EditSession gate', () => {
  it('Edit rejected without prior view: FILE_NOT_VIEWED names the path', async () => {
    const session = editorWorld().sessions.for('s1');
    const error = await domainError(session.seenVersion('/workspace/a.txt', '/workspace/a.txt'));
    expect(error.code).toBe('FILE_NOT_VIEWED');
    expect(error.message).toContain('/workspace/a.txt');
  });

  it('returns what the session saw', async () => {
    const session = editorWorld().sessions.for('s1');
    await session.recordSeen('/workspace/a.txt', stat(3, 1000), 'abc');
    expect(await session.seenVersion('/workspace/a.txt', '/workspace/a.txt')).toEqual({ size: 3, modifiedAtMs: 1000, sha256: 'abc' });
  });

  it('a view in one session does not open the file to another', async () => {
    const world = editorWorld();
    await world.sessions.for('s1').recordSeen('/workspace/a.txt', stat(3, 1000));
    expect((await domainError(world.sessions.for('s2').seenVersion('/workspace/a.txt', '/workspace/a.txt'))).code).toBe('FILE_NOT_VIEWED');
  });

  it('is off when require_view_before_edit is false', async () => {
    const session = editorWorld({ settings: { requireViewBeforeEdit: false } }).sessions.for('s1');
    expect(await session.seenVersion('/workspace/a.txt', '/workspace/a.txt')).toBeNull();
    await expect(session.assertUnchanged(null, '/workspace/a.txt', stat(9, 9), async () => 'x')).resolves.toBeUndefined();
  });
});

describe('EditSession.assertUnchanged', () => {
  const session = editorWorld().sessions.for('s1');
  const unhashed = { size: 3, modifiedAtMs: 1000 };
  const hashed = { size: 3, modifiedAtMs: 1000, sha256: 'abc' };
  const neverHashed = async (): Promise<string> => {
    throw new Error('hash not needed');
  };

  it('passes when size and mtime match and no hash is known', async () => {
    await expect(session.assertUnchanged(unhashed, '/workspace/a.txt', stat(3, 1000), neverHashed)).resolves.toBeUndefined();
  });

  it.each([
    ['another size', stat(4, 1000)],
    ['another mtime', stat(3, 2000)],
  ])('FILE_CHANGED_SINCE_VIEW for %s (no hash known)', async (_, current) => {
    const error = await domainError(session.assertUnchanged(unhashed, '/workspace/a.txt', current, neverHashed));
    expect(error.code).toBe('FILE_CHANGED_SINCE_VIEW');
    expect(error.message).toContain('view it again');
  });

  it('catches a same-size rewrite within the same mtime tick by its hash', async () => {
    const error = await domainError(session.assertUnchanged(hashed, '/workspace/a.txt', stat(3, 1000), async () => 'def'));
    expect(error.code).toBe('FILE_CHANGED_SINCE_VIEW');
  });

  it('lets a touch (same content, new mtime) through when the hash matches', async () => {
    await expect(session.assertUnchanged(hashed, '/workspace/a.txt', stat(3, 5000), async () => 'abc')).resolves.toBeUndefined();
  });

  it('does not hash when the size already differs', async () => {
    expect((await domainError(session.assertUnchanged(hashed, '/workspace/a.txt', stat(4, 1000), neverHashed))).code).toBe('FILE_CHANGED_SINCE_VIEW');
  });
});
