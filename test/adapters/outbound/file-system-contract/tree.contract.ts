import type { ContractContext } from '../file-system.contract.js';
import { DIRECTORY_ESCAPES, FILE_ESCAPES, REAL, SECRET, seedEscapes } from './escapes.js';

/** removeFile, removeDirectory, rename, copyFile and ownerNames. */
export function describeTreeContract({ fixture, at, expectError, statOf }: ContractContext): void {
  const seed = () => fixture().seed;
  const inspect = () => fixture().inspect;

  const expectOutsideUntouched = (before: string[]) => {
    expect(inspect().outsideEntries()).toEqual(before);
    expect(inspect().outsideText('secret.txt')).toBe(SECRET);
  };

  describe('removeFile', () => {
    const remove = (rel: string) => fixture().fs.removeFile(at(rel));

    it('removes a file', async () => {
      await seed().file('a.txt', 'x');
      await remove('a.txt');
      expect(inspect().exists('a.txt')).toBe(false);
    });

    it('removes a link itself, never its target, wherever it points', async () => {
      await seedEscapes(fixture());
      await seed().symlink('link', 'real.txt');
      await seed().symlink('dangling', 'nothing');
      await seed().symlink('loop', 'loop');
      const before = inspect().outsideEntries();
      for (const rel of ['link', 'dangling', 'loop', ...FILE_ESCAPES.map(([, name]) => name)]) {
        await remove(rel);
        expect(inspect().exists(rel)).toBe(false);
      }
      expect(inspect().text('real.txt')).toBe(REAL);
      expectOutsideUntouched(before);
    });

    it('fails with NOT_FOUND, IS_A_DIRECTORY, NOT_A_DIRECTORY as appropriate', async () => {
      await seed().dir('d');
      await seed().file('a.txt', 'x');
      await expectError(remove('missing.txt'), 'NOT_FOUND');
      await expectError(remove('d'), 'IS_A_DIRECTORY');
      await expectError(remove(''), 'IS_A_DIRECTORY');
      await expectError(remove('a.txt/b'), 'NOT_A_DIRECTORY');
      expect(inspect().exists('d')).toBe(true);
    });

    it('words NOT_FOUND alike on both adapters: the file itself, or a folder on the way (an undo shows the message)', async () => {
      await seed().dir('d');
      expect((await expectError(remove('d/missing.txt'), 'NOT_FOUND')).message).toMatch(/^file not found: d\/missing\.txt/);
      expect((await expectError(remove('no-dir/missing.txt'), 'NOT_FOUND')).message).toMatch(/^path not found: no-dir\/missing\.txt/);
    });

    it.each(DIRECTORY_ESCAPES)('refuses to remove a file reached through %s', async (_label, rel) => {
      await seedEscapes(fixture());
      const before = inspect().outsideEntries();
      await expectError(remove(`${rel}/secret.txt`), 'ACCESS_DENIED');
      expectOutsideUntouched(before);
    });
  });

  describe('removeDirectory', () => {
    const removeDir = (rel: string) => fixture().fs.removeDirectory(at(rel));

    it('removes a directory and everything below it', async () => {
      await seed().file('d/a.txt', 'a');
      await seed().file('d/sub/deeper/b.txt', 'b');
      await seed().dir('d/empty');
      await removeDir('d');
      expect(inspect().exists('d')).toBe(false);
    });

    it('E2E-069: never follows a link inside the tree; targets outside and inside survive', async () => {
      await seedEscapes(fixture());
      await seed().file('keep/kept.txt', 'kept');
      await seed().dir('d');
      await seed().symlink('d/escape', fixture().outsideHostDir);
      await seed().linkToOutside('d/secret-link', 'secret.txt');
      await seed().symlink('d/inner-link', '../keep');
      await seed().symlink('d/file-link', '../real.txt');
      const before = inspect().outsideEntries();
      await removeDir('d');
      expect(inspect().exists('d')).toBe(false);
      expectOutsideUntouched(before);
      expect(inspect().text('keep/kept.txt')).toBe('kept');
      expect(inspect().text('real.txt')).toBe(REAL);
    });

    it('refuses a link to a directory instead of following it', async () => {
      await seed().file('real-dir/inner.txt', 'x');
      await seed().symlink('dir-link', 'real-dir');
      await expectError(removeDir('dir-link'), 'NOT_A_DIRECTORY');
      expect(inspect().text('real-dir/inner.txt')).toBe('x');
      expect(inspect().exists('dir-link')).toBe(true);
    });

    it('ACCESS_DENIED for the root itself', async () => {
      await seed().file('a.txt', 'x');
      await expectError(removeDir(''), 'ACCESS_DENIED');
      expect(inspect().text('a.txt')).toBe('x');
    });

    it('fails with NOT_FOUND, NOT_A_DIRECTORY as appropriate', async () => {
      await seed().file('a.txt', 'x');
      await expectError(removeDir('missing'), 'NOT_FOUND');
      await expectError(removeDir('a.txt'), 'NOT_A_DIRECTORY');
      expect(inspect().exists('a.txt')).toBe(true);
    });

    it('words NOT_FOUND alike on both adapters: the folder itself, or a folder on the way', async () => {
      await seed().dir('d');
      expect((await expectError(removeDir('d/missing'), 'NOT_FOUND')).message).toMatch(/^directory not found: d\/missing/);
      expect((await expectError(removeDir('no-dir/missing'), 'NOT_FOUND')).message).toMatch(/^path not found: no-dir\/missing/);
    });

    it.each(DIRECTORY_ESCAPES)('refuses %s itself and anything reached through it', async (_label, rel) => {
      await seedEscapes(fixture());
      const before = inspect().outsideEntries();
      await expectError(removeDir(rel), 'NOT_A_DIRECTORY');
      await seed().outsideFile('victim/file.txt', 'victim');
      await expectError(removeDir(`${rel}/victim`), 'ACCESS_DENIED');
      expect(inspect().outsideText('victim/file.txt')).toBe('victim');
      expect(inspect().outsideText('secret.txt')).toBe(SECRET);
      expect(inspect().outsideEntries()).toEqual([...before, 'victim', 'victim/file.txt'].sort());
    });
  });

  describe('rename', () => {
    const move = (from: string, to: string) => fixture().fs.rename(at(from), at(to));

    it('renames a file', async () => {
      await seed().file('a.txt', 'content', 0o600);
      expect(await move('a.txt', 'b.txt')).toBe('renamed');
      expect(inspect().exists('a.txt')).toBe(false);
      expect(inspect().text('b.txt')).toBe('content');
      expect((await statOf('b.txt'))?.permissions).toBe(0o600);
    });

    it('keeps the inode through a rename: another file there had another one (a search index tells them apart)', async () => {
      await seed().file('a.txt', 'new');
      await seed().file('b.txt', 'old');
      const moved = (await statOf('a.txt'))!.inode;
      expect(moved).not.toBe((await statOf('b.txt'))!.inode);
      await move('a.txt', 'b.txt');
      expect((await statOf('b.txt'))!.inode).toBe(moved);
    });

    it('replaces a file at the destination', async () => {
      await seed().file('a.txt', 'new');
      await seed().file('b.txt', 'old');
      expect(await move('a.txt', 'b.txt')).toBe('renamed');
      expect(inspect().text('b.txt')).toBe('new');
      expect(inspect().exists('a.txt')).toBe(false);
    });

    it('moves a directory with its contents into another directory', async () => {
      await seed().file('d/sub/a.txt', 'a');
      await seed().dir('target');
      expect(await move('d', 'target/d2')).toBe('renamed');
      expect(inspect().text('target/d2/sub/a.txt')).toBe('a');
      expect(inspect().exists('d')).toBe(false);
    });

    it('renames a link itself, not its target, even one that leads outside', async () => {
      await seedEscapes(fixture());
      await seed().symlink('link', 'real.txt');
      const before = inspect().outsideEntries();
      expect(await move('link', 'link2')).toBe('renamed');
      expect((await statOf('link2'))?.link?.text).toBe('real.txt');
      expect(await move('abs-escape', 'moved-escape')).toBe('renamed');
      expect((await statOf('moved-escape'))?.link?.resolution).toBe('outside');
      expect(inspect().text('real.txt')).toBe(REAL);
      expectOutsideUntouched(before);
    });

    it('replaces a link at the destination, not its target', async () => {
      await seed().file('a.txt', 'a');
      await seed().file('t.txt', 't');
      await seed().symlink('link', 't.txt');
      expect(await move('a.txt', 'link')).toBe('renamed');
      expect(inspect().text('link')).toBe('a');
      expect(inspect().text('t.txt')).toBe('t');
    });

    it('ACCESS_DENIED for moving the root itself or onto it', async () => {
      await seed().file('a.txt', 'x');
      await expectError(move('', 'elsewhere'), 'ACCESS_DENIED');
      await expectError(move('a.txt', ''), 'ACCESS_DENIED');
      expect(inspect().text('a.txt')).toBe('x');
    });

    it('moving onto itself changes nothing', async () => {
      await seed().file('a.txt', 'same');
      expect(await move('a.txt', 'a.txt')).toBe('renamed');
      expect(inspect().text('a.txt')).toBe('same');
    });

    it('fails with NOT_FOUND for a missing source or destination directory', async () => {
      await seed().file('a.txt', 'x');
      await expectError(move('missing.txt', 'b.txt'), 'NOT_FOUND');
      await expectError(move('a.txt', 'no-dir/b.txt'), 'NOT_FOUND');
      expect(inspect().text('a.txt')).toBe('x');
    });

    it('words a missing destination folder alike on both adapters (an undo of a move shows the message)', async () => {
      await seed().file('a.txt', 'x');
      expect((await expectError(move('a.txt', 'no-dir/b.txt'), 'NOT_FOUND')).message).toMatch(/^path not found: no-dir\/b\.txt/);
    });

    it('words a missing source folder alike on both adapters, and a missing source file as the source', async () => {
      // Found by the fuzzer (stop 28): an undo of a move whose moved entry lost its folder.
      await seed().file('a.txt', 'x');
      expect((await expectError(move('no-dir/a.txt', 'b.txt'), 'NOT_FOUND')).message).toMatch(/^path not found: no-dir\/a\.txt/);
      expect((await expectError(move('missing.txt', 'b.txt'), 'NOT_FOUND')).message).toMatch(/^source not found: missing\.txt/);
    });

    it('does not replace a directory at the destination', async () => {
      await seed().file('a.txt', 'x');
      await seed().dir('d');
      await seed().dir('empty');
      await expectError(move('a.txt', 'd'), 'IS_A_DIRECTORY');
      await expectError(move('d', 'empty'), 'IS_A_DIRECTORY');
      expect(inspect().text('a.txt')).toBe('x');
      expect(inspect().exists('d')).toBe(true);
    });

    it('refuses to move a directory over a file', async () => {
      await seed().dir('d');
      await seed().file('a.txt', 'x');
      await expectError(move('d', 'a.txt'), 'NOT_A_DIRECTORY');
      expect(inspect().text('a.txt')).toBe('x');
    });

    it('INVALID_ARGUMENT for a directory moved into its own subtree', async () => {
      await seed().dir('d/sub');
      await seed().symlink('sub-link', 'd/sub');
      await expectError(move('d', 'd/sub/d'), 'INVALID_ARGUMENT');
      await expectError(move('d', 'sub-link/d'), 'INVALID_ARGUMENT');
      expect(inspect().exists('d/sub')).toBe(true);
    });

    it.each(DIRECTORY_ESCAPES)('refuses to move into or out of %s', async (_label, rel) => {
      await seedEscapes(fixture());
      await seed().file('mine.txt', 'mine');
      const before = inspect().outsideEntries();
      await expectError(move('mine.txt', `${rel}/stolen.txt`), 'ACCESS_DENIED');
      await expectError(move(`${rel}/secret.txt`, 'taken.txt'), 'ACCESS_DENIED');
      expectOutsideUntouched(before);
      expect(inspect().text('mine.txt')).toBe('mine');
      expect(inspect().exists('taken.txt')).toBe(false);
    });
  });

  describe('copyFile', () => {
    const copy = (from: string, to: string) => fixture().fs.copyFile(at(from), at(to));

    it('copies content and permissions; the source is unchanged', async () => {
      await seed().file('a.txt', 'content', 0o600);
      expect(await copy('a.txt', 'b.txt')).toEqual({ size: 7 });
      expect(inspect().text('b.txt')).toBe('content');
      expect(inspect().text('a.txt')).toBe('content');
      expect((await statOf('b.txt'))?.permissions).toBe(0o600);
    });

    it('overwrites an existing destination file', async () => {
      await seed().file('a.txt', 'new');
      await seed().file('b.txt', 'old and longer');
      expect(await copy('a.txt', 'b.txt')).toEqual({ size: 3 });
      expect(inspect().text('b.txt')).toBe('new');
    });

    it('words a missing source folder alike on both adapters, and a missing source file as the source file', async () => {
      expect((await expectError(copy('no-dir/a.txt', 'b.txt'), 'NOT_FOUND')).message).toMatch(/^path not found: no-dir\/a\.txt/);
      expect((await expectError(copy('missing.txt', 'b.txt'), 'NOT_FOUND')).message).toMatch(/^source file not found: missing\.txt/);
    });

    it('copying a file onto itself keeps it intact', async () => {
      await seed().file('a.txt', 'same');
      expect(await copy('a.txt', 'a.txt')).toEqual({ size: 4 });
      expect(inspect().text('a.txt')).toBe('same');
    });

    it('follows an in-root source link and makes a regular file', async () => {
      await seed().file('real.txt', REAL);
      await seed().symlink('link', 'real.txt');
      await copy('link', 'copy.txt');
      expect(await statOf('copy.txt')).toMatchObject({ kind: 'file', size: REAL.length });
      expect(inspect().text('copy.txt')).toBe(REAL);
    });

    it('replaces a link at the destination instead of writing through it', async () => {
      await seedEscapes(fixture());
      await seed().file('a.txt', 'mine');
      const before = inspect().outsideEntries();
      await copy('a.txt', 'abs-escape');
      expect(await statOf('abs-escape')).toMatchObject({ kind: 'file' });
      expect(inspect().text('abs-escape')).toBe('mine');
      expectOutsideUntouched(before);
    });

    it.each(FILE_ESCAPES)('refuses to copy from %s', async (_label, rel) => {
      await seedEscapes(fixture());
      await expectError(copy(rel, 'copy.txt'), 'ACCESS_DENIED');
      expect(inspect().exists('copy.txt')).toBe(false);
    });

    it.each(DIRECTORY_ESCAPES)('refuses to copy into %s', async (_label, rel) => {
      await seedEscapes(fixture());
      const before = inspect().outsideEntries();
      await expectError(copy('real.txt', `${rel}/stolen.txt`), 'ACCESS_DENIED');
      await expectError(copy('real.txt', `${rel}/secret.txt`), 'ACCESS_DENIED');
      expectOutsideUntouched(before);
    });

    it('fails with NOT_FOUND, IS_A_DIRECTORY as appropriate', async () => {
      await seed().file('a.txt', 'x');
      await seed().dir('d');
      await seed().symlink('dangling', 'nothing.txt');
      await expectError(copy('missing.txt', 'b.txt'), 'NOT_FOUND');
      await expectError(copy('dangling', 'b.txt'), 'NOT_FOUND');
      await expectError(copy('d', 'b.txt'), 'IS_A_DIRECTORY');
      await expectError(copy('a.txt', 'd'), 'IS_A_DIRECTORY');
      await expectError(copy('a.txt', 'no-dir/b.txt'), 'NOT_FOUND');
      expect(inspect().exists('b.txt')).toBe(false);
    });
  });

  describe('ownerNames', () => {
    it('names the owner of a file, and falls back to the number for an unknown id', async () => {
      await seed().file('a.txt', 'x');
      const stat = await statOf('a.txt');
      const names = await fixture().fs.ownerNames(stat?.uid ?? -1, stat?.gid ?? -1);
      expect(names.owner.length).toBeGreaterThan(0);
      expect(names.group.length).toBeGreaterThan(0);
      expect(await fixture().fs.ownerNames(2147480001, 2147480002)).toEqual({ owner: '2147480001', group: '2147480002' });
    });
  });
}
