import { domainError, editorWorld, type EditorWorld } from './editor-harness.js';

function create(world: EditorWorld, path: string, content: string, sessionId = 's1') {
  return world.createFile.execute({ sessionId, path, content });
}

describe('create_file', () => {
  it('Create new file: written, confirmed with path and size', async () => {
    const world = editorWorld();
    const outcome = await create(world, 'hello.txt', 'héllo\n');
    expect(world.fs.readText('/ws/hello.txt')).toBe('héllo\n');
    expect(outcome.result).toEqual({ path: '/workspace/hello.txt', size: 7, created: true });
    expect(outcome.text).toBe('Created /workspace/hello.txt (7 bytes)');
  });

  it('File permissions: a new file has mode 0644', async () => {
    const world = editorWorld();
    await create(world, 'new.txt', 'x');
    expect(world.fs.permissionsOf('/ws/new.txt')).toBe(0o644);
  });

  it('Nested path creation: src/pkg/new/file.go creates src/pkg/new/ (0755)', async () => {
    const world = editorWorld();
    world.fs.seedDirectory('/ws/src');
    await create(world, 'src/pkg/new/file.go', 'package new\n');
    expect(world.fs.readText('/ws/src/pkg/new/file.go')).toBe('package new\n');
    expect(world.fs.kindOf('/ws/src/pkg/new')).toBe('directory');
    expect(world.fs.permissionsOf('/ws/src/pkg/new')).toBe(0o755);
  });

  it('Overwrite existing file: after a view, the file is replaced and keeps its mode', async () => {
    const world = editorWorld();
    world.fs.seedFile('/ws/run.sh', 'old\n', { permissions: 0o755 });
    await world.view.execute({ sessionId: 's1', path: 'run.sh' });
    const outcome = await create(world, 'run.sh', 'new\n');
    expect(world.fs.readText('/ws/run.sh')).toBe('new\n');
    expect(world.fs.permissionsOf('/ws/run.sh')).toBe(0o755);
    expect(outcome.result.created).toBe(false);
    expect(outcome.text).toBe('Overwrote /workspace/run.sh (4 bytes)');
  });

  it('Overwrite rejected without prior view: FILE_NOT_VIEWED, the file untouched', async () => {
    const world = editorWorld();
    world.fs.seedFile('/ws/a.txt', 'precious\n');
    const error = await domainError(create(world, 'a.txt', 'clobber'));
    expect(error.code).toBe('FILE_NOT_VIEWED');
    expect(world.fs.readText('/ws/a.txt')).toBe('precious\n');
  });

  it('FILE_CHANGED_SINCE_VIEW when the file changed on disk after the view', async () => {
    const world = editorWorld();
    world.fs.seedFile('/ws/a.txt', 'v1\n');
    await world.view.execute({ sessionId: 's1', path: 'a.txt' });
    world.fs.seedFile('/ws/a.txt', 'v2\n', { modifiedAt: world.fs.modifiedAtOf('/ws/a.txt') });
    expect((await domainError(create(world, 'a.txt', 'v3\n'))).code).toBe('FILE_CHANGED_SINCE_VIEW');
    expect(world.fs.readText('/ws/a.txt')).toBe('v2\n');
  });

  it('a file the session created itself can be overwritten without a view', async () => {
    const world = editorWorld();
    await create(world, 'a.txt', 'one\n');
    await create(world, 'a.txt', 'two\n');
    expect(world.fs.readText('/ws/a.txt')).toBe('two\n');
  });

  it('of two sessions creating the same new file at once, the second needs a view first', async () => {
    const world = editorWorld();
    const [first, second] = await Promise.allSettled([create(world, 'race.txt', 'first\n', 's1'), create(world, 'race.txt', 'second\n', 's2')]);
    expect(first.status).toBe('fulfilled');
    expect(second.status === 'rejected' && second.reason.code).toBe('FILE_NOT_VIEWED');
    expect(world.fs.readText('/ws/race.txt')).toBe('first\n');
  });

  it('no view needed when require_view_before_edit is off', async () => {
    const world = editorWorld({ settings: { requireViewBeforeEdit: false } });
    world.fs.seedFile('/ws/a.txt', 'old\n');
    await create(world, 'a.txt', 'new\n');
    expect(world.fs.readText('/ws/a.txt')).toBe('new\n');
  });

  it('Content exceeds max size: refused, counting UTF-8 bytes', async () => {
    const world = editorWorld({ settings: { maxFileSize: 10 } });
    const error = await domainError(create(world, 'a.txt', 'éééééx'));
    expect(error.toClientText()).toBe(
      'FILE_TOO_LARGE: content too large: /workspace/a.txt is 11 bytes, over the max_file_size limit of 10 bytes',
    );
    expect(world.fs.exists('/ws/a.txt')).toBe(false);
  });

  it('Path scoping enforced: outside the roots is ACCESS_DENIED and nothing is written', async () => {
    const world = editorWorld();
    world.fs.seedSymlink('/ws/planted', '/outside/planted.txt');
    expect((await domainError(create(world, '../outside/x.txt', 'x'))).code).toBe('ACCESS_DENIED');
    expect((await domainError(create(world, 'planted', 'x'))).code).toBe('ACCESS_DENIED');
    expect(world.fs.exists('/outside/planted.txt')).toBe(false);
    expect(world.fs.exists('/outside/x.txt')).toBe(false);
  });

  it('writes through a dangling in-root link, creating its target', async () => {
    const world = editorWorld();
    world.fs.seedSymlink('/ws/config.yml', 'real/config.yml');
    world.fs.seedDirectory('/ws/real');
    const outcome = await create(world, 'config.yml', 'a: 1\n');
    expect(world.fs.readText('/ws/real/config.yml')).toBe('a: 1\n');
    expect(world.fs.kindOf('/ws/config.yml')).toBe('symlink');
    expect(outcome.result.created).toBe(true);
  });

  it('refuses a directory, /, and a root without create_file', async () => {
    const world = editorWorld();
    world.fs.seedDirectory('/ws/dir');
    expect((await domainError(create(world, 'dir', 'x'))).code).toBe('IS_A_DIRECTORY');
    expect((await domainError(create(world, '/', 'x'))).code).toBe('IS_A_DIRECTORY');
    expect((await domainError(create(world, '/readonly/x.txt', 'x'))).toClientText()).toBe(
      'TOOL_NOT_ALLOWED: tool create_file not allowed on root readonly',
    );
  });
});
