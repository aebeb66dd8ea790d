import { domainError, fileToolsWorld } from './file-tools-harness.js';

// Issue 19 §4: list_folder with depth > 1, on the in-memory file system.
function tree() {
  const world = fileToolsWorld();
  world.fs.seedFile('/ws/b.txt', 'bb', { modifiedAt: new Date('2024-05-06T07:08:09Z') });
  world.fs.seedFile('/ws/a/z.txt', 'z');
  world.fs.seedFile('/ws/a/b/c/deep.txt', 'deep');
  world.fs.seedFile('/ws/a-file', 'x');
  world.fs.seedSymlink('/ws/a/up', '../b.txt');
  world.fs.seedSymlink('/ws/a/out', '/outside');
  world.fs.seedSymlink('/ws/loop', '.');
  return world;
}

describe('ListFolder with depth', () => {
  it('lists the subtree down to depth, each directory followed by its entries by name, path relative to the folder', async () => {
    const { listFolder } = tree();
    const result = await listFolder.execute({ root: 'workspace', path: '.', depth: 3 });
    expect(result.entries.map((entry) => [entry.path, entry.type])).toEqual([
      ['a', 'directory'],
      ['a/b', 'directory'],
      ['a/b/c', 'directory'],
      ['a/out', 'symlink'],
      ['a/up', 'symlink'],
      ['a/z.txt', 'file'],
      ['a-file', 'file'],
      ['b.txt', 'file'],
      ['loop', 'symlink'],
    ]);
    expect(result.count).toBe(9);
    expect(result).not.toHaveProperty('truncated');
    expect(result.entries.find((entry) => entry.path === 'b.txt')).toEqual({ name: 'b.txt', path: 'b.txt', type: 'file', size: 2, modified_at: '2024-05-06T07:08:09.000Z' });
    // Links are listed with where they lead, never entered (no loop, nothing outside).
    const links = Object.fromEntries(result.entries.filter((entry) => entry.type === 'symlink').map((entry) => [entry.path, entry.target_type]));
    expect(links).toEqual({ 'a/out': 'external', 'a/up': 'file', loop: 'directory' });
  });

  it('lists below a subfolder with paths relative to it, and depth 1 answers as before (no path field)', async () => {
    const { listFolder } = tree();
    expect((await listFolder.execute({ root: 'workspace', path: 'a', depth: 2 })).entries.map((entry) => entry.path)).toEqual(['b', 'b/c', 'out', 'up', 'z.txt']);
    const flat = await listFolder.execute({ root: 'workspace', path: 'a' });
    expect(flat.entries.map((entry) => entry.name)).toEqual(['b', 'out', 'up', 'z.txt']);
    expect(flat.entries.every((entry) => entry.path === undefined)).toBe(true);
    expect(flat).toEqual({ path: 'a', entries: flat.entries, count: 4 });
  });

  it('stops at max_entries with truncated and how many were omitted', async () => {
    const { fs, listFolder } = fileToolsWorld();
    for (let d = 0; d < 5; d++) for (let f = 0; f < 4; f++) fs.seedFile(`/ws/d${d}/f${f}.txt`, 'x');
    const result = await listFolder.execute({ root: 'workspace', path: '.', depth: 2, max_entries: 7 });
    expect(result.entries.map((entry) => entry.path)).toEqual(['d0', 'd0/f0.txt', 'd0/f1.txt', 'd0/f2.txt', 'd0/f3.txt', 'd1', 'd1/f0.txt']);
    expect(result).toMatchObject({ count: 7, truncated: true, omitted: 25 - 7 });
    const flat = await listFolder.execute({ root: 'workspace', path: 'd0', max_entries: 3 });
    expect(flat).toMatchObject({ count: 3, truncated: true, omitted: 1 });
  });

  it('passes over what ignore rules ignore (counted as ignored, not as omitted), unless ignore is none', async () => {
    const { fs, listFolder } = fileToolsWorld();
    fs.seedFile('/ws/.gitignore', 'skip/\n');
    fs.seedFile('/ws/keep/a.txt', 'a');
    fs.seedFile('/ws/skip/b.txt', 'b');
    fs.seedFile('/ws/zz.txt', 'z');
    const result = await listFolder.execute({ root: 'workspace', path: '.', depth: 3, max_entries: 3 });
    expect(result.entries.map((entry) => entry.path)).toEqual(['.gitignore', 'keep', 'keep/a.txt']);
    expect(result).toMatchObject({ truncated: true, omitted: 1, ignored: 1 });
    const all = await listFolder.execute({ root: 'workspace', path: '.', depth: 3, ignore: 'none' });
    expect(all.entries.map((entry) => entry.path)).toEqual(['.gitignore', 'keep', 'keep/a.txt', 'skip', 'skip/b.txt', 'zz.txt']);
    expect(all).not.toHaveProperty('ignored');
  });

  it.each([[0], [11], [1.5]])('refuses depth %p naming the root', async (depth) => {
    const { listFolder } = tree();
    const error = await domainError(listFolder.execute({ root: 'workspace', path: '.', depth }));
    expect(error.code).toBe('INVALID_ARGUMENT');
    expect(error.message).toBe(`depth must be an integer from 1 to 10, got ${depth} (root: workspace)`);
  });

  it.each([[0], [10_001]])('refuses max_entries %p', async (max_entries) => {
    const { listFolder } = tree();
    expect((await domainError(listFolder.execute({ root: 'workspace', path: '.', depth: 2, max_entries }))).message).toMatch(/^max_entries must be an integer from 1 to 10000/);
  });
});
