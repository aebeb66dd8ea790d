import { domainError, editorWorld } from './editor-harness.js';

describe('change_directory', () => {
  it('moves the working directory and returns it (absolute and relative)', async () => {
    const world = editorWorld();
    world.fs.seedDirectory('/ws/project/src');
    expect(await world.changeDirectory.execute({ sessionId: 's1', path: '/workspace/project' })).toEqual({ cwd: '/workspace/project' });
    expect(await world.changeDirectory.execute({ sessionId: 's1', path: 'src' })).toEqual({ cwd: '/workspace/project/src' });
    expect(await world.changeDirectory.execute({ sessionId: 's1', path: '../..' })).toEqual({ cwd: '/workspace' });
    expect(await world.changeDirectory.execute({ sessionId: 's1', path: '.' })).toEqual({ cwd: '/workspace' });
  });

  it('is per session', async () => {
    const world = editorWorld();
    world.fs.seedDirectory('/ws/project');
    await world.changeDirectory.execute({ sessionId: 's1', path: 'project' });
    expect(await world.changeDirectory.execute({ sessionId: 's2', path: '.' })).toEqual({ cwd: '/workspace' });
  });

  it('can enter any root, allowlists notwithstanding (always available)', async () => {
    expect(await editorWorld().changeDirectory.execute({ sessionId: 's1', path: '/readonly' })).toEqual({ cwd: '/readonly' });
  });

  it('keeps a linked directory as written, so .. goes back where it came from', async () => {
    const world = editorWorld();
    world.fs.seedDirectory('/ws/real/inner');
    world.fs.seedSymlink('/ws/project/shortcut', '../real/inner');
    expect(await world.changeDirectory.execute({ sessionId: 's1', path: 'project/shortcut' })).toEqual({ cwd: '/workspace/project/shortcut' });
    expect(await world.changeDirectory.execute({ sessionId: 's1', path: '..' })).toEqual({ cwd: '/workspace/project' });
  });

  it('refuses a missing directory, a file, /, and leaving a root', async () => {
    const world = editorWorld();
    world.fs.seedFile('/ws/a.txt', 'a');
    world.fs.seedSymlink('/ws/escape', '/outside');
    expect((await domainError(world.changeDirectory.execute({ sessionId: 's1', path: 'nope' }))).toClientText()).toBe(
      'NOT_FOUND: directory not found: /workspace/nope',
    );
    expect((await domainError(world.changeDirectory.execute({ sessionId: 's1', path: 'a.txt' }))).code).toBe('NOT_A_DIRECTORY');
    expect((await domainError(world.changeDirectory.execute({ sessionId: 's1', path: '/' }))).code).toBe('INVALID_ARGUMENT');
    expect((await domainError(world.changeDirectory.execute({ sessionId: 's1', path: '..' }))).code).toBe('ACCESS_DENIED');
    expect((await domainError(world.changeDirectory.execute({ sessionId: 's1', path: 'escape' }))).code).toBe('ACCESS_DENIED');
    expect(await world.changeDirectory.execute({ sessionId: 's1', path: '.' })).toEqual({ cwd: '/workspace' });
  });
});
