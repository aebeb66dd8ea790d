import { domainError, fileToolsWorld } from './file-tools-harness.js';

describe('ListFolder', () => {
  it('E2E-004: lists immediate children sorted by name with type, size and ISO time', async () => {
    const { fs, listFolder } = fileToolsWorld();
    fs.seedFile('/ws/b.txt', 'bbbb', { modifiedAt: new Date('2024-05-06T07:08:09Z') });
    fs.seedFile('/ws/a.txt', 'a');
    fs.seedFile('/ws/sub/inner.txt', 'deep');

    const result = await listFolder.execute({ root: 'workspace', path: '.' });
    expect(result.path).toBe('.');
    expect(result.count).toBe(3);
    expect(result.entries.map((entry) => [entry.name, entry.type])).toEqual([
      ['a.txt', 'file'],
      ['b.txt', 'file'],
      ['sub', 'directory'],
    ]);
    expect(result.entries[1]).toEqual({ name: 'b.txt', type: 'file', size: 4, modified_at: '2024-05-06T07:08:09.000Z' });
  });

  it.each(['', '.', '/'])('treats %j as the root itself', async (path) => {
    const { fs, listFolder } = fileToolsWorld();
    fs.seedFile('/ws/only.txt', 'x');
    expect((await listFolder.execute({ root: 'workspace', path })).entries.map((entry) => entry.name)).toEqual(['only.txt']);
  });

  it('sorts by code point, not by locale', async () => {
    const { fs, listFolder } = fileToolsWorld();
    for (const name of ['b', 'B', 'a', '_', 'Z', 'é', '\u{1F600}', '\uFFFD']) fs.seedFile(`/ws/${name}`, '');
    const names = (await listFolder.execute({ root: 'workspace', path: '.' })).entries.map((entry) => entry.name);
    expect(names).toEqual(['B', 'Z', '_', 'a', 'b', 'é', '\uFFFD', '\u{1F600}']);
  });

  it('E2E-005: an empty directory has no entries', async () => {
    const { fs, listFolder } = fileToolsWorld();
    fs.seedDirectory('/ws/empty');
    expect(await listFolder.execute({ root: 'workspace', path: 'empty' })).toEqual({ path: 'empty', entries: [], count: 0 });
  });

  it('E2E-006: a file is not a directory', async () => {
    const { fs, listFolder } = fileToolsWorld();
    fs.seedFile('/ws/data.txt', 'data');
    const error = await domainError(listFolder.execute({ root: 'workspace', path: 'data.txt' }));
    expect(error.toClientText()).toBe('NOT_A_DIRECTORY: not a directory: data.txt (root: workspace)');
  });

  it('reports a missing directory', async () => {
    const { listFolder } = fileToolsWorld();
    const error = await domainError(listFolder.execute({ root: 'workspace', path: 'nope' }));
    expect(error.toClientText()).toBe('NOT_FOUND: directory not found: nope (root: workspace)');
  });

  it('describes where each symlink leads without following it', async () => {
    const { fs, listFolder } = fileToolsWorld();
    fs.seedFile('/ws/real.txt', 'x');
    fs.seedDirectory('/ws/dir');
    fs.seedSymlink('/ws/to-file', 'real.txt');
    fs.seedSymlink('/ws/to-dir', '/ws/dir');
    fs.seedSymlink('/ws/to-outside', '/outside');
    fs.seedSymlink('/ws/dangling', 'missing.txt');
    fs.seedSymlink('/ws/climbing', '../outside/secret.txt');

    const entries = (await listFolder.execute({ root: 'workspace', path: '.' })).entries;
    const links = Object.fromEntries(entries.filter((entry) => entry.type === 'symlink').map((entry) => [entry.name, entry.target_type]));
    expect(links).toEqual({ 'to-file': 'file', 'to-dir': 'directory', 'to-outside': 'external', dangling: 'broken', climbing: 'external' });
    expect(entries.find((entry) => entry.name === 'real.txt')).not.toHaveProperty('target_type');
  });

  it('lists a directory reached through an in-root link', async () => {
    const { fs, listFolder } = fileToolsWorld();
    fs.seedFile('/ws/dir/inside.txt', 'x');
    fs.seedSymlink('/ws/alias', 'dir');
    expect((await listFolder.execute({ root: 'workspace', path: 'alias' })).entries.map((entry) => entry.name)).toEqual(['inside.txt']);
  });

  it('E2E-064: refuses a link that leaves the root, without naming the host path', async () => {
    const { fs, listFolder } = fileToolsWorld();
    fs.seedSymlink('/ws/escape', '/outside');
    const error = await domainError(listFolder.execute({ root: 'workspace', path: 'escape' }));
    expect(error.code).toBe('ACCESS_DENIED');
    expect(error.message).toContain('path resolves outside root boundary: escape (root: workspace)');
    expect(error.message).not.toContain('/outside');
  });

  it('E2E-063: refuses .. above the root', async () => {
    const { listFolder } = fileToolsWorld();
    expect((await domainError(listFolder.execute({ root: 'workspace', path: '../outside' }))).code).toBe('ACCESS_DENIED');
  });

  it('E2E-072: names an unknown root', async () => {
    const { listFolder } = fileToolsWorld();
    expect((await domainError(listFolder.execute({ root: 'nonexistent', path: '.' }))).toClientText()).toBe(
      'UNKNOWN_ROOT: unknown root: nonexistent',
    );
  });

  // NFR-002's time budget is measured by `npm run bench` against the real file system.
  it('lists and sorts 10,000 entries (NFR-002)', async () => {
    const { fs, listFolder } = fileToolsWorld();
    for (let i = 0; i < 10_000; i += 1) fs.seedFile(`/ws/big/file-${String(i).padStart(5, '0')}.txt`, 'x');
    const result = await listFolder.execute({ root: 'workspace', path: 'big' });
    expect(result.count).toBe(10_000);
    expect(result.entries[9_999].name).toBe('file-09999.txt');
  });
});
