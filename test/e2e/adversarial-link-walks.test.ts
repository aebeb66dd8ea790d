import { promises as fs } from 'node:fs';
import { join } from 'node:path';
import { writeTree } from '../support/fixtures.js';
import { pair, useArena, ws } from './adversarial-harness.js';

// Red team: links inside trees that copy, move, remove_folder, grep and glob walk, and links moved
// from root to root. None may lead a walk or a later call outside the roots.

const { live, arena, host, call, link, relativeTo } = useArena({
  roots: [
    { name: 'workspace', allowedTools: ['*'] },
    { name: 'other', allowedTools: ['*'] },
    { name: 'limited', allowedTools: ['move', 'list_folder'] },
  ],
});

describe('links inside trees walked by copy, move, remove_folder, grep and glob', () => {
  beforeEach(async () => {
    await writeTree(live.root, { 'tree/own.txt': 'own\n', 'tree/deep/own2.txt': 'own2\n' });
    await link(arena.outside, 'tree/outdir');
    await link(join(arena.outside, 'secret.txt'), 'tree/deep/outfile');
    await link(relativeTo(arena.outside, 'tree/deep/reloutdir'), 'tree/deep/reloutdir');
  });

  it('grep and glob list links but never enter them', async () => {
    const grepped = (await call('grep', ws({ pattern: '.', max_results: 10000 }))).structured;
    expect(grepped.matches.map((m: any) => m.file).sort()).toEqual(['tree/deep/own2.txt', 'tree/own.txt']);
    const globbed = (await call('glob', ws({ pattern: '**', max_results: 10000 }))).structured;
    expect(globbed.matches.map((m: any) => m.path).every((p: string) => !/secret|inner|sub/.test(p))).toBe(true);
    const filtered = (await call('grep', ws({ pattern: 'SECRET', glob_filter: '**/*' }))).structured;
    expect(filtered.total_matches).toBe(0);
  });

  it('copy leaves the links out, within a root and across roots', async () => {
    for (const [destRoot, dest] of [['workspace', 'copy'], ['other', 'copy']]) {
      const copied = (await call('copy', pair('tree', dest, 'workspace', destRoot))).structured;
      expect(copied.files_copied).toBe(2);
      expect(copied.skipped.map((s: any) => s.path).sort()).toEqual(['tree/deep/outfile', 'tree/deep/reloutdir', 'tree/outdir']);
    }
    const copiedRoot = (await call('copy', { source_root: 'workspace', source_path: '.', dest_root: 'other', dest_path: 'snap' })).structured;
    expect(copiedRoot.files_copied).toBe(4);
  });

  it('remove_folder unlinks links and leaves their targets', async () => {
    expect((await call('remove_folder', ws({ path: 'tree' }))).isError).toBe(false);
    expect(await fs.readdir(live.root)).toEqual([]);
  });

  it('a tree moved to another root keeps its links unusable there', async () => {
    expect((await call('move', { source_root: 'workspace', source_path: 'tree', dest_root: 'other', dest_path: 'tree' })).isError).toBe(false);
    const other = (extra: Record<string, unknown>) => ({ root: 'other', ...extra });
    for (const path of ['tree/outdir/secret.txt', 'tree/deep/outfile', 'tree/deep/reloutdir/secret.txt']) {
      expect((await call('read_file', other({ path }))).isError).toBe(true);
      expect((await call('write_file', other({ path, content: 'pwned' }))).isError).toBe(true);
    }
  });
});

describe('moving links between roots', () => {
  it('a link that was inside one root points outside after a move and stays unusable', async () => {
    await writeTree(live.root, { 'x.txt': 'workspace x\n' });
    await link('../../x.txt', 'a/b/ln');
    expect((await call('read_file', ws({ path: 'a/b/ln' }))).structured.content).toBe('workspace x\n');

    expect((await call('move', { source_root: 'workspace', source_path: 'a/b/ln', dest_root: 'other', dest_path: 'ln' })).isError).toBe(false);
    expect((await call('read_file', { root: 'other', path: 'ln' })).isError).toBe(true);
    // Moved back up one level inside the same root, the same text now climbs out of it.
    await link('../x.txt', 'a/up');
    expect((await call('move', pair('a/up', 'up'))).isError).toBe(false);
    expect((await call('read_file', ws({ path: 'up' }))).isError).toBe(true);
    expect((await call('write_file', ws({ path: 'up', content: 'pwned' }))).isError).toBe(true);
  });

  it('a link into a root that forbids reading does not become readable by moving it to a root that allows it', async () => {
    await writeTree(live.server.rootPath('limited'), { 'private.txt': 'limited private\n' });
    await link(host('private.txt', 'limited'), 'peek', 'limited');
    await link(host('private.txt', 'limited'), 'peek2');

    expect((await call('read_file', ws({ path: 'peek2' }))).isError).toBe(true);
    expect((await call('move', { source_root: 'limited', source_path: 'peek', dest_root: 'workspace', dest_path: 'peek' })).isError).toBe(false);
    const read = await call('read_file', ws({ path: 'peek' }));
    expect(read.isError).toBe(true);
    expect(read.text).not.toContain('limited private');
    expect((await call('copy', pair('peek', 'stolen.txt'))).isError).toBe(true);
  });

  it('a directory link as copy/move destination parent is followed only inside the root', async () => {
    await writeTree(live.root, { 'a.txt': 'a\n', 'realdir/': '' });
    await link('realdir', 'indir');
    await link(live.server.rootPath('other'), 'otherroot');

    expect((await call('copy', pair('a.txt', 'indir'))).structured.destination).toBe('indir/a.txt');
    expect(await fs.readFile(host('realdir/a.txt'), 'utf8')).toBe('a\n');
    expect((await call('copy', pair('a.txt', 'otherroot'))).isError).toBe(true);
    expect((await call('move', pair('a.txt', 'otherroot/a.txt'))).isError).toBe(true);
    expect(await fs.readdir(live.server.rootPath('other'))).toEqual([]);
  });
});
