import { promises as fs } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { writeTree } from '../support/fixtures.js';
import { pair, useArena, ws } from './adversarial-harness.js';

// Red team: links placed in the roots by someone else (agents cannot create links) must never
// let any tool read, write, list, stat, hash, create, delete or rename outside the roots.

const { live, arena, host, call, link, relativeTo } = useArena({
  roots: [
    { name: 'workspace', allowedTools: ['*'] },
    { name: 'other', allowedTools: ['*'] },
    { name: 'limited', allowedTools: ['move', 'list_folder'] },
  ],
});

/** Every refusal a reading tool can give for `path`; none may succeed. */
async function expectEveryReadRefused(path: string): Promise<void> {
  const calls: [string, Record<string, unknown>][] = [
    ['read_file', ws({ path })],
    ['read_file', ws({ path, offset_lines: 1, limit_lines: 5 })],
    ['read_file', ws({ path, offset_bytes: 0, limit_bytes: 10 })],
    ['read_files', ws({ paths: [path, `${path}/secret.txt`] })],
    ['read_files', ws({ paths: [path], offset_lines: 1, limit_lines: 5 })],
    ['hash_file', ws({ path, algorithm: 'sha256' })],
    ['list_folder', ws({ path })],
    ['grep', ws({ path, pattern: 'SECRET' })],
    ['glob', ws({ path, pattern: '**' })],
    ['copy', pair(path, 'stolen')],
    ['copy', pair(path, 'stolen', 'workspace', 'other')],
  ];
  for (const [name, args] of calls) {
    const outcome = await call(name, args);
    expect({ name, isError: outcome.isError }).toEqual({ name, isError: true });
  }
  expect(await fs.readdir(live.server.rootPath('other'))).toEqual([]);
}

describe('links to an outside file', () => {
  it.each([
    ['absolute', () => join(arena.outside, 'secret.txt')],
    ['relative', () => relativeTo(join(arena.outside, 'secret.txt'), 'nested/leak.txt')],
  ])('%s: no tool reads, writes or patches through it', async (_kind, target) => {
    await link(target(), 'nested/leak.txt');

    await expectEveryReadRefused('nested/leak.txt');
    for (const mode of ['overwrite', 'append', 'create_only']) {
      expect((await call('write_file', ws({ path: 'nested/leak.txt', content: 'pwned', mode }))).isError).toBe(true);
    }
    expect((await call('patch_file', ws({ path: 'nested/leak.txt', patch: '@@ -1,1 +1,1 @@\n-x\n+pwned\n' }))).isError).toBe(true);
    expect((await call('patch_file', ws({ path: 'nested/leak.txt', patch: '@@ -0,0 +1,1 @@\n+pwned\n' }))).isError).toBe(true);
  });

  it('stat_file and permissions_file describe the link only; remove_file removes the link, not the target', async () => {
    await link(join(arena.outside, 'secret.txt'), 'leak.txt');

    const stat = await call('stat_file', ws({ path: 'leak.txt' }));
    expect(stat.structured).toMatchObject({ is_symlink: true, target_outside_root: true });
    expect(stat.structured.target).toBeUndefined();
    const perms = await call('permissions_file', ws({ path: 'leak.txt' }));
    expect(perms.structured.mode_string).toMatch(/^l/);

    expect((await call('remove_file', ws({ path: 'leak.txt' }))).isError).toBe(false);
    await expect(fs.lstat(host('leak.txt'))).rejects.toThrow();
  });

  it('an outside target that exists and one that does not look the same (no existence oracle)', async () => {
    await link(join(arena.outside, 'secret.txt'), 'exists');
    await link(join(arena.outside, 'absent.txt'), 'exist5');

    const stats = [await call('stat_file', ws({ path: 'exists' })), await call('stat_file', ws({ path: 'exist5' }))];
    const shape = (s: any) => ({ ...s.structured, name: '', path: '', modified_at: '', created_at: '' });
    expect(shape(stats[0])).toEqual(shape(stats[1]));

    const listed = (await call('list_folder', ws({ path: '.' }))).structured.entries;
    expect(listed.map((e: any) => e.target_type)).toEqual(['external', 'external']);

    const reads = [await call('read_file', ws({ path: 'exists' })), await call('read_file', ws({ path: 'exist5' }))];
    expect(reads[0].text.replace('exists', 'X')).toBe(reads[1].text.replace('exist5', 'X'));
    const below = [await call('read_file', ws({ path: 'exists/x' })), await call('read_file', ws({ path: 'exist5/x' }))];
    expect(below[0].text.replace('exists', 'X')).toBe(below[1].text.replace('exist5', 'X'));
  });
});

describe('links to an outside directory', () => {
  it.each([
    ['absolute', () => arena.outside],
    ['relative', () => relativeTo(arena.outside, 'd/out')],
  ])('%s: nothing below it can be read, listed, written, created, removed, copied or moved', async (_kind, target) => {
    await link(target(), 'd/out');
    await writeTree(live.root, { 'mine.txt': 'mine\n' });

    await expectEveryReadRefused('d/out');
    await expectEveryReadRefused('d/out/secret.txt');
    await expectEveryReadRefused('d/out/sub');
    const attacks: [string, Record<string, unknown>][] = [
      ['write_file', ws({ path: 'd/out/secret.txt', content: 'pwned' })],
      ['write_file', ws({ path: 'd/out/planted.txt', content: 'pwned', mode: 'create_only' })],
      ['write_file', ws({ path: 'd/out/secret.txt', content: 'pwned', mode: 'append' })],
      ['write_file', ws({ path: 'd/out/secret.txt', content: 'pwned', dry_run: true })],
      ['patch_file', ws({ path: 'd/out/planted.txt', patch: '@@ -0,0 +1,1 @@\n+pwned\n' })],
      ['patch_file', ws({ path: 'd/out/secret.txt', patch: '@@ -1,1 +1,1 @@\n-x\n+pwned\n', dry_run: true })],
      ['create_folder', ws({ path: 'd/out/newdir' })],
      ['create_folder', ws({ path: 'd/out/sub/deeper' })],
      ['remove_file', ws({ path: 'd/out/secret.txt' })],
      ['remove_folder', ws({ path: 'd/out/sub' })],
      ['remove_folder', ws({ path: 'd/out' })],
      ['stat_file', ws({ path: 'd/out/secret.txt' })],
      ['permissions_file', ws({ path: 'd/out/secret.txt' })],
      ['copy', pair('mine.txt', 'd/out')],
      ['copy', pair('mine.txt', 'd/out/planted.txt')],
      ['move', pair('d/out/secret.txt', 'taken.txt')],
      ['move', pair('d/out/sub', 'taken')],
      ['move', pair('mine.txt', 'd/out/mine.txt')],
    ];
    for (const [name, args] of attacks) {
      const outcome = await call(name, args);
      expect({ name, args, isError: outcome.isError }).toEqual({ name, args, isError: true });
    }
    expect(await fs.readFile(host('mine.txt'), 'utf8')).toBe('mine\n');
    // move of a link into it: the destination is followed as a directory, so it must be refused too.
    await link('mine.txt', 'ln');
    expect((await call('move', pair('ln', 'd/out'))).isError).toBe(true);
    // Moving the link itself (not through it) is allowed and leaves its target alone.
    expect((await call('move', pair('d/out', 'moved-out'))).isError).toBe(false);
    expect((await call('read_file', ws({ path: 'moved-out/secret.txt' }))).isError).toBe(true);
  });

  it('a link to the root itself and to its parent: remove_folder never takes the root, the parent is unreachable', async () => {
    await writeTree(live.root, { 'keep.txt': 'keep\n' });
    await link('..', 'sub/self');
    await link(live.root, 'selfabs');
    await link('..', 'up');
    await link(dirname(live.root), 'upabs');

    for (const path of ['sub/self', 'selfabs', 'sub/self/', 'selfabs/.', 'sub/self/sub/self']) {
      expect((await call('remove_folder', ws({ path }))).isError).toBe(true);
    }
    expect(await fs.readFile(host('keep.txt'), 'utf8')).toBe('keep\n');
    for (const path of ['up', 'upabs', 'up/' + `${relative(dirname(live.root), arena.outside)}`]) {
      await expectEveryReadRefused(path);
      expect((await call('create_folder', ws({ path: `${path}/planted` }))).isError).toBe(true);
      expect((await call('write_file', ws({ path: `${path}/planted.txt`, content: 'x' }))).isError).toBe(true);
    }
  });
});

describe('dangling links to outside', () => {
  it.each([
    ['absolute', (name: string) => join(arena.outside, name)],
    ['relative', (name: string) => relativeTo(join(arena.outside, name), 'new.txt')],
  ])('%s: write, append, create_only, patch, copy and create_folder never create the target', async (_kind, target) => {
    await writeTree(live.root, { 'src.txt': 'source\n', 'srcdir/a.txt': 'a\n' });
    await link(target('planted.txt'), 'new.txt');
    await link(target('planted-dir'), 'newdir');

    const attacks: [string, Record<string, unknown>][] = [
      ['write_file', ws({ path: 'new.txt', content: 'pwned' })],
      ['write_file', ws({ path: 'new.txt', content: 'pwned', mode: 'append' })],
      ['write_file', ws({ path: 'new.txt', content: 'pwned', mode: 'create_only' })],
      ['patch_file', ws({ path: 'new.txt', patch: '@@ -0,0 +1,1 @@\n+pwned\n' })],
      ['create_folder', ws({ path: 'newdir' })],
      ['create_folder', ws({ path: 'newdir/sub' })],
      ['write_file', ws({ path: 'newdir/x.txt', content: 'pwned' })],
      ['copy', pair('src.txt', 'newdir/x.txt')],
      ['copy', pair('srcdir', 'newdir/tree')],
      ['move', pair('src.txt', 'newdir/x.txt')],
    ];
    for (const [name, args] of attacks) {
      const outcome = await call(name, args);
      expect({ name, args, isError: outcome.isError }).toEqual({ name, args, isError: true });
    }
    // copy/move onto the dangling link itself: replacing the link is fine, writing through it is not.
    await call('copy', pair('src.txt', 'new.txt'));
    await call('move', pair('srcdir', 'newdir'));
    expect(await fs.readdir(arena.outside)).toEqual(['secret.txt', 'sub']);
  });
});

describe('chains, loops and special targets', () => {
  it('a chain that leaves the root and comes back in is refused', async () => {
    await writeTree(live.root, { 'real.txt': 'real\n', 'realdir/f.txt': 'f\n' });
    const back = join(arena.outside, 'back');
    const backDir = join(arena.outside, 'back-dir');
    // Planted by this test, removed before the outside tree is compared with its snapshot.
    await fs.symlink(host('real.txt'), back);
    await fs.symlink(host('realdir'), backDir);
    try {
      await link(relativeTo(back, 'hop'), 'hop');
      await link(backDir, 'hopdir');
      await expectEveryReadRefused('hop');
      await expectEveryReadRefused('hopdir');
      await expectEveryReadRefused('hopdir/f.txt');
      expect((await call('write_file', ws({ path: 'hop', content: 'x' }))).isError).toBe(true);
      expect((await call('write_file', ws({ path: 'hopdir/g.txt', content: 'x' }))).isError).toBe(true);
    } finally {
      await fs.rm(back);
      await fs.rm(backDir);
    }
  });

  it('a chain that stays in the root for a hop before leaving is refused at the leaving hop', async () => {
    await link('second', 'first');
    await link(join(arena.outside, 'secret.txt'), 'second');
    await link('seconddir', 'firstdir');
    await link(relativeTo(arena.outside, 'seconddir'), 'seconddir');
    for (const path of ['first', 'firstdir', 'firstdir/secret.txt']) {
      await expectEveryReadRefused(path);
      expect((await call('write_file', ws({ path, content: 'pwned', mode: 'append' }))).isError).toBe(true);
    }
    expect((await call('write_file', ws({ path: 'firstdir/planted.txt', content: 'pwned' }))).isError).toBe(true);
  });

  it("'..' after a link inside a link's text is lexical: it never reaches the link target's physical parent", async () => {
    // Physically out/.. is the outside directory itself, where secret.txt lives.
    await link(join(arena.outside, 'sub'), 'out');
    await link('out/../secret.txt', 'sneaky');
    await link('out/../sub/inner.txt', 'sneaky2');
    for (const path of ['sneaky', 'sneaky2']) {
      expect((await call('read_file', ws({ path }))).text).toMatch(/^NOT_FOUND: /);
      // The link resolves (lexically) to an in-root path that does not exist yet; writing
      // through it creates that in-root file, never the outside one.
      expect((await call('write_file', ws({ path, content: 'mine', mode: 'append' }))).isError).toBe(false);
      expect((await call('read_file', ws({ path }))).structured.content).toBe('mine');
    }
    expect(await fs.readFile(host('secret.txt'), 'utf8')).toBe('mine');
    expect(await fs.readFile(host('sub/inner.txt'), 'utf8')).toBe('mine');
  });

  it('loops and self-links: every tool answers with an error, walks terminate', async () => {
    await writeTree(live.root, { 'sub/file.txt': 'needle\n' });
    await link('l2', 'l1');
    await link('l1', 'l2');
    await link('me', 'me');
    await link('..', 'sub/back');
    await link('.', 'sub/here');

    for (const path of ['l1', 'me', 'l1/x', 'me/x']) {
      for (const [name, args] of [
        ['read_file', ws({ path })],
        ['hash_file', ws({ path, algorithm: 'md5' })],
        ['list_folder', ws({ path })],
        ['write_file', ws({ path, content: 'x' })],
        ['create_folder', ws({ path })],
        ['patch_file', ws({ path, patch: '@@ -0,0 +1,1 @@\n+x\n' })],
        ['grep', ws({ path, pattern: 'x' })],
        ['glob', ws({ path, pattern: '*' })],
      ] as [string, Record<string, unknown>][]) {
        expect({ name, path, isError: (await call(name, args)).isError }).toEqual({ name, path, isError: true });
      }
    }
    expect((await call('stat_file', ws({ path: 'l1' }))).structured).toMatchObject({ is_symlink: true, target_missing: true });

    const globbed = (await call('glob', ws({ pattern: '**', max_results: 10000 }))).structured;
    expect(globbed.matches.length).toBeLessThan(20);
    const grepped = (await call('grep', ws({ pattern: 'needle', max_results: 10000 }))).structured;
    expect(grepped.matches.map((m: any) => m.file)).toEqual(['sub/file.txt']);
    const copied = (await call('copy', pair('sub', 'copy'))).structured;
    expect(copied.files_copied).toBe(1);
    expect((await call('remove_folder', ws({ path: 'sub' }))).isError).toBe(false);
    expect((await fs.readdir(live.root)).sort()).toEqual(['copy', 'l1', 'l2', 'me']);
  });

  it('links to /proc/self/root and /proc/self/cwd are outside', async () => {
    await link('/proc/self/root', 'hostroot');
    await link('/proc/self/cwd', 'cwd');
    await link(`/proc/self/root${arena.outside}`, 'viaproc');
    for (const path of ['hostroot', 'hostroot/etc/passwd', 'cwd', 'cwd/package.json', 'viaproc/secret.txt']) {
      await expectEveryReadRefused(path);
    }
    expect((await call('write_file', ws({ path: 'viaproc/planted.txt', content: 'x' }))).isError).toBe(true);
    const grepped = await call('grep', ws({ pattern: 'root:', max_results: 10 }));
    expect(grepped.structured.total_matches).toBe(0);
  });
});
