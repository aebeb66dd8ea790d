import { domainError, fileToolsWorld } from './file-tools-harness.js';

describe('StatFile', () => {
  it('E2E-032: describes a file', async () => {
    const { fs, statFile } = fileToolsWorld();
    fs.seedFile('/ws/data/input.json', '{"key": "value"}\n', { permissions: 0o640, modifiedAt: new Date('2024-03-04T05:06:07Z') });
    expect(await statFile.execute({ root: 'workspace', path: 'data/input.json' })).toEqual({
      name: 'input.json',
      path: 'data/input.json',
      size: 17,
      is_directory: false,
      is_symlink: false,
      modified_at: '2024-03-04T05:06:07.000Z',
      created_at: '2026-01-01T00:00:00.000Z',
      permissions: '0640',
    });
  });

  it('E2E-033: describes a directory', async () => {
    const { fs, statFile } = fileToolsWorld();
    fs.seedDirectory('/ws/subdir');
    expect(await statFile.execute({ root: 'workspace', path: 'subdir' })).toMatchObject({ name: 'subdir', is_directory: true, is_symlink: false });
  });

  it('describes the root itself as "."', async () => {
    const { statFile } = fileToolsWorld();
    expect(await statFile.execute({ root: 'workspace', path: '/' })).toMatchObject({ name: '.', path: '.', is_directory: true });
  });

  it('E2E-034: describes a link and its in-root target', async () => {
    const { fs, statFile } = fileToolsWorld();
    fs.seedFile('/ws/docs/target.txt', 'target content\n', { modifiedAt: new Date('2024-01-02T03:04:05Z') });
    fs.seedSymlink('/ws/link', 'docs/target.txt');
    const result = await statFile.execute({ root: 'workspace', path: 'link' });
    expect(result).toMatchObject({ name: 'link', is_symlink: true, is_directory: false });
    expect(result.target).toEqual({
      path: 'docs/target.txt',
      size: 15,
      is_directory: false,
      modified_at: '2024-01-02T03:04:05.000Z',
      type: 'file',
    });
    expect(result).not.toHaveProperty('target_missing');
  });

  it('describes a link to an in-root directory', async () => {
    const { fs, statFile } = fileToolsWorld();
    fs.seedDirectory('/ws/dir');
    fs.seedSymlink('/ws/alias', '/ws/dir');
    expect((await statFile.execute({ root: 'workspace', path: 'alias' })).target).toMatchObject({ path: 'dir', is_directory: true, type: 'directory' });
  });

  it('says a link leaves the root without describing or naming its target', async () => {
    const { fs, statFile } = fileToolsWorld();
    fs.seedSymlink('/ws/escape', '/outside/secret.txt');
    const result = await statFile.execute({ root: 'workspace', path: 'escape' });
    expect(result).toMatchObject({ is_symlink: true, target_outside_root: true });
    expect(result).not.toHaveProperty('target');
    expect(JSON.stringify(result)).not.toContain('outside/');
  });

  it('says a dangling link has no target', async () => {
    const { fs, statFile } = fileToolsWorld();
    fs.seedSymlink('/ws/dangling', 'gone.txt');
    const result = await statFile.execute({ root: 'workspace', path: 'dangling' });
    expect(result).toMatchObject({ is_symlink: true, target_missing: true });
    expect(result).not.toHaveProperty('target');
  });

  it('E2E-019: names a missing file', async () => {
    const { statFile } = fileToolsWorld();
    expect((await domainError(statFile.execute({ root: 'workspace', path: 'to_delete.txt' }))).toClientText()).toBe(
      'NOT_FOUND: file not found: to_delete.txt (root: workspace)',
    );
  });

  it('E2E-066: is refused on a root that does not allow it', async () => {
    const { statFile } = fileToolsWorld();
    expect((await domainError(statFile.execute({ root: 'readonly', path: '.' }))).code).toBe('TOOL_NOT_ALLOWED');
  });
});
