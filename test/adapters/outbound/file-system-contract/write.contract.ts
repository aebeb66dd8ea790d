import type { WriteOptions } from '../../../../src/domain/ports/file-system.port.js';
import { type ContractContext, encode, REPLACE } from '../file-system.contract.js';
import { DIRECTORY_ESCAPES, FILE_ESCAPES, REAL, SECRET, seedEscapes } from './escapes.js';

/** writeFile, createDirectory and setDirectoryPermissions. */
export function describeWriteContract({ fixture, at, expectError, statOf }: ContractContext): void {
  const write = (rel: string, text: string, options: Partial<WriteOptions> = {}) =>
    fixture().fs.writeFile(at(rel), encode(text), { ...REPLACE, ...options });

  /** Security: after any refused escape, nothing outside may have changed. */
  const expectOutsideUntouched = (before: string[]) => {
    expect(fixture().inspect.outsideEntries()).toEqual(before);
    expect(fixture().inspect.outsideText('secret.txt')).toBe(SECRET);
    expect(fixture().inspect.text('real.txt')).toBe(REAL);
  };

  describe('writeFile', () => {
    it('creates a new file with 0644, or the permissions asked for', async () => {
      expect(await write('a.txt', 'hello')).toEqual({ created: true, size: 5 });
      expect(await write('b.txt', 'secret', { newFilePermissions: 0o600 })).toEqual({ created: true, size: 6 });
      expect(fixture().inspect.text('a.txt')).toBe('hello');
      expect((await statOf('a.txt'))?.permissions).toBe(0o644);
      expect((await statOf('b.txt'))?.permissions).toBe(0o600);
    });

    it('writes an empty file', async () => {
      expect(await write('empty.txt', '')).toEqual({ created: true, size: 0 });
      expect(fixture().inspect.text('empty.txt')).toBe('');
    });

    it('replace: overwrites an existing file and keeps its permissions', async () => {
      await fixture().seed.file('a.txt', 'a much longer original', 0o600);
      expect(await write('a.txt', 'short', { newFilePermissions: 0o644 })).toEqual({ created: false, size: 5 });
      expect(fixture().inspect.text('a.txt')).toBe('short');
      expect((await statOf('a.txt'))?.permissions).toBe(0o600);
    });

    it('replace with permissions: the file has them after the write, existing or new (an undo restores content and mode at once)', async () => {
      await fixture().seed.file('a.txt', 'old', 0o600);
      expect(await write('a.txt', 'new', { permissions: 0o640 })).toEqual({ created: false, size: 3 });
      expect(fixture().inspect.text('a.txt')).toBe('new');
      expect((await statOf('a.txt'))?.permissions).toBe(0o640);
      expect(await write('b.txt', 'fresh', { permissions: 0o604, newFilePermissions: 0o644 })).toEqual({ created: true, size: 5 });
      expect((await statOf('b.txt'))?.permissions).toBe(0o604);
    });

    it('writes content of every size whole: small content and content past 1 MiB, by replace and create_exclusive', async () => {
      // The Node adapter fills temp files of up to 1 MiB with synchronous calls and larger ones through a FileHandle.
      const sizes = [1, 1024 * 1024, 1024 * 1024 + 1, 3 * 1024 * 1024 + 7];
      for (const size of sizes) {
        const text = 'abcdefghij'.repeat(Math.ceil(size / 10)).slice(0, size);
        await fixture().seed.file(`replace-${size}.txt`, 'old', 0o600);
        expect(await write(`replace-${size}.txt`, text)).toEqual({ created: false, size });
        expect(await write(`new-${size}.txt`, text, { mode: 'create_exclusive' })).toEqual({ created: true, size });
        expect({ size, replaced: fixture().inspect.text(`replace-${size}.txt`) === text, created: fixture().inspect.text(`new-${size}.txt`) === text }).toEqual({
          size,
          replaced: true,
          created: true,
        });
        expect((await statOf(`replace-${size}.txt`))?.permissions).toBe(0o600);
      }
      const listed = (await fixture().fs.readDirectory(at(''))).map((entry) => entry.name).sort();
      expect(listed).toEqual(sizes.flatMap((size) => [`new-${size}.txt`, `replace-${size}.txt`]).sort());
    });

    it('create_exclusive: creates when nothing is there', async () => {
      expect(await write('new.txt', 'x', { mode: 'create_exclusive' })).toEqual({ created: true, size: 1 });
      expect(fixture().inspect.text('new.txt')).toBe('x');
    });

    it('create_exclusive: ALREADY_EXISTS for a file, a directory or even a dangling link', async () => {
      await fixture().seed.file('a.txt', 'original');
      await fixture().seed.dir('d');
      await fixture().seed.symlink('dangling', 'target.txt');
      await expectError(write('a.txt', 'x', { mode: 'create_exclusive' }), 'ALREADY_EXISTS');
      await expectError(write('d', 'x', { mode: 'create_exclusive' }), 'ALREADY_EXISTS');
      await expectError(write('dangling', 'x', { mode: 'create_exclusive' }), 'ALREADY_EXISTS');
      expect(fixture().inspect.text('a.txt')).toBe('original');
      expect(fixture().inspect.exists('target.txt')).toBe(false);
    });

    it('append: adds to the end, or creates the file', async () => {
      await fixture().seed.file('log.txt', 'one\n', 0o600);
      expect(await write('log.txt', 'two\n', { mode: 'append' })).toEqual({ created: false, size: 8 });
      expect(fixture().inspect.text('log.txt')).toBe('one\ntwo\n');
      expect((await statOf('log.txt'))?.permissions).toBe(0o600);
      expect(await write('new.log', 'first', { mode: 'append' })).toEqual({ created: true, size: 5 });
      expect(fixture().inspect.text('new.log')).toBe('first');
    });

    it('NOT_FOUND for a missing parent unless createParents, which makes 0755 directories', async () => {
      await expectError(write('a/b/c.txt', 'x'), 'NOT_FOUND');
      expect(fixture().inspect.exists('a')).toBe(false);
      expect(await write('a/b/c.txt', 'x', { createParents: true })).toEqual({ created: true, size: 1 });
      expect(fixture().inspect.text('a/b/c.txt')).toBe('x');
      expect(await statOf('a')).toMatchObject({ kind: 'directory', permissions: 0o755 });
      expect(await statOf('a/b')).toMatchObject({ kind: 'directory', permissions: 0o755 });
    });

    it('IS_A_DIRECTORY for a directory, NOT_A_DIRECTORY through a file', async () => {
      await fixture().seed.dir('d');
      await fixture().seed.file('a.txt', 'x');
      await expectError(write('d', 'x'), 'IS_A_DIRECTORY');
      await expectError(write('', 'x'), 'IS_A_DIRECTORY');
      await expectError(write('a.txt/b.txt', 'x'), 'NOT_A_DIRECTORY');
      await expectError(write('a.txt/b/c.txt', 'x', { createParents: true }), 'NOT_A_DIRECTORY');
      expect(fixture().inspect.text('a.txt')).toBe('x');
    });

    it('writes through a final in-root link to its target; the link stays a link', async () => {
      await fixture().seed.file('target.txt', 'old', 0o600);
      await fixture().seed.symlink('link', 'target.txt');
      expect(await write('link', 'new')).toEqual({ created: false, size: 3 });
      expect(fixture().inspect.text('target.txt')).toBe('new');
      expect((await statOf('link'))?.kind).toBe('symlink');
      expect((await statOf('target.txt'))?.permissions).toBe(0o600);
    });

    it('a dangling in-root link: the write creates its target', async () => {
      await fixture().seed.dir('sub');
      await fixture().seed.symlink('dangling', 'sub/target.txt');
      expect(await write('dangling', 'made')).toEqual({ created: true, size: 4 });
      expect(fixture().inspect.text('sub/target.txt')).toBe('made');
      expect((await statOf('dangling'))?.link?.resolution).toBe('inside');
    });

    it('a dangling in-root link below missing directories: NOT_FOUND, or made with createParents', async () => {
      await fixture().seed.symlink('dangling', 'new-dir/deeper/target.txt');
      await expectError(write('dangling', 'x'), 'NOT_FOUND');
      expect(fixture().inspect.exists('new-dir')).toBe(false);
      expect(await write('dangling', 'made', { createParents: true })).toEqual({ created: true, size: 4 });
      expect(fixture().inspect.text('new-dir/deeper/target.txt')).toBe('made');
    });

    it('writes into a directory reached through an in-root link', async () => {
      await fixture().seed.dir('real-dir');
      await fixture().seed.symlink('dir-link', 'real-dir');
      await write('dir-link/new.txt', 'x');
      expect(fixture().inspect.text('real-dir/new.txt')).toBe('x');
    });

    it('a dangling link to outside: ACCESS_DENIED and nothing is created', async () => {
      await fixture().seed.linkToOutside('dangling-out', 'not-there.txt');
      await fixture().seed.file('real.txt', REAL);
      await fixture().seed.outsideFile('secret.txt', SECRET);
      const before = fixture().inspect.outsideEntries();
      for (const mode of ['replace', 'append'] as const) {
        await expectError(write('dangling-out', 'pwned', { mode }), 'ACCESS_DENIED');
      }
      expectOutsideUntouched(before);
      expect(before).not.toContain('not-there.txt');
    });

    it.each(FILE_ESCAPES)('refuses to write through %s (replace and append)', async (_label, rel) => {
      await seedEscapes(fixture());
      const before = fixture().inspect.outsideEntries();
      await expectError(write(rel, 'pwned'), 'ACCESS_DENIED');
      await expectError(write(rel, 'pwned', { mode: 'append' }), 'ACCESS_DENIED');
      expectOutsideUntouched(before);
    });

    it.each(DIRECTORY_ESCAPES)('refuses to create a file through %s, with or without createParents', async (_label, rel) => {
      await seedEscapes(fixture());
      const before = fixture().inspect.outsideEntries();
      await expectError(write(`${rel}/new.txt`, 'pwned'), 'ACCESS_DENIED');
      await expectError(write(`${rel}/deeper/new.txt`, 'pwned', { createParents: true }), 'ACCESS_DENIED');
      await expectError(write(`${rel}/secret.txt`, 'pwned', { mode: 'create_exclusive' }), 'ACCESS_DENIED');
      expectOutsideUntouched(before);
    });

    it('refuses to write through a loop', async () => {
      await fixture().seed.symlink('loop-a', 'loop-b');
      await fixture().seed.symlink('loop-b', 'loop-a');
      await expectError(write('loop-a', 'x'), 'ACCESS_DENIED');
      expect(fixture().inspect.exists('loop-b')).toBe(true);
    });
  });

  describe('createDirectory', () => {
    const mkdir = (rel: string) => fixture().fs.createDirectory(at(rel));

    it('makes every missing directory with 0755, like mkdir -p', async () => {
      expect(await mkdir('a/b/c')).toEqual({ created: true });
      expect(await statOf('a/b/c')).toMatchObject({ kind: 'directory', permissions: 0o755 });
      expect(await statOf('a')).toMatchObject({ kind: 'directory', permissions: 0o755 });
    });

    it('created=false when it already is a directory, including the root', async () => {
      await fixture().seed.dir('d');
      expect(await mkdir('d')).toEqual({ created: false });
      expect(await mkdir('')).toEqual({ created: false });
    });

    it('NOT_A_DIRECTORY when a file is in the way, at the end or in the middle', async () => {
      await fixture().seed.file('a.txt', 'x');
      await fixture().seed.symlink('file-link', 'a.txt');
      await expectError(mkdir('a.txt'), 'NOT_A_DIRECTORY');
      await expectError(mkdir('a.txt/sub'), 'NOT_A_DIRECTORY');
      await expectError(mkdir('file-link'), 'NOT_A_DIRECTORY');
      expect(fixture().inspect.text('a.txt')).toBe('x');
    });

    it('follows in-root links on the way', async () => {
      await fixture().seed.dir('real-dir');
      await fixture().seed.symlink('dir-link', 'real-dir');
      expect(await mkdir('dir-link')).toEqual({ created: false });
      expect(await mkdir('dir-link/sub')).toEqual({ created: true });
      expect(await statOf('real-dir/sub')).toMatchObject({ kind: 'directory' });
    });

    it('a dangling in-root link is followed: its target directory is made', async () => {
      await fixture().seed.symlink('dangling', 'made-dir');
      expect(await mkdir('dangling/sub')).toEqual({ created: true });
      expect(await statOf('made-dir/sub')).toMatchObject({ kind: 'directory' });
      expect((await statOf('dangling'))?.kind).toBe('symlink');
    });

    it('a dangling in-root link below missing directories: all of them are made', async () => {
      await fixture().seed.symlink('dangling', 'new-dir/deeper');
      expect(await mkdir('dangling')).toEqual({ created: true });
      expect(await statOf('new-dir/deeper')).toMatchObject({ kind: 'directory', permissions: 0o755 });
    });

    it.each(DIRECTORY_ESCAPES)('refuses to create anything through %s', async (_label, rel) => {
      await seedEscapes(fixture());
      const before = fixture().inspect.outsideEntries();
      await expectError(mkdir(`${rel}/new-dir`), 'ACCESS_DENIED');
      await expectError(mkdir(`${rel}/new-dir/deeper`), 'ACCESS_DENIED');
      expectOutsideUntouched(before);
    });

    it('refuses a dangling link that leads outside, creating nothing', async () => {
      await seedEscapes(fixture());
      await fixture().seed.linkToOutside('dangling-out', 'new-dir');
      const before = fixture().inspect.outsideEntries();
      await expectError(mkdir('dangling-out'), 'ACCESS_DENIED');
      await expectError(mkdir('dangling-out/sub'), 'ACCESS_DENIED');
      expectOutsideUntouched(before);
    });

    it('gives the last directory it makes the permissions asked for, exactly (the umask does not decide), and leaves an existing one alone', async () => {
      expect(await fixture().fs.createDirectory(at('p/q'), { permissions: 0o700 })).toEqual({ created: true });
      expect(await statOf('p/q')).toMatchObject({ kind: 'directory', permissions: 0o700 });
      expect(await statOf('p')).toMatchObject({ kind: 'directory', permissions: 0o755 });
      expect(await fixture().fs.createDirectory(at('open'), { permissions: 0o777 })).toEqual({ created: true });
      expect((await statOf('open'))?.permissions).toBe(0o777);
      expect(await fixture().fs.createDirectory(at('p'), { permissions: 0o700 })).toEqual({ created: false });
      expect((await statOf('p'))?.permissions).toBe(0o755);
    });
  });

  describe('setDirectoryPermissions', () => {
    const chmod = (rel: string, permissions: number) => fixture().fs.setDirectoryPermissions(at(rel), permissions);

    it('sets a directory\'s mode bits exactly and answers what they are now', async () => {
      await fixture().seed.dir('d');
      expect(await chmod('d', 0o750)).toBe(0o750);
      expect((await statOf('d'))?.permissions).toBe(0o750);
      expect(await chmod('d', 0o1777)).toBe(0o1777);
      expect((await statOf('d'))?.permissions).toBe(0o1777);
      expect(await chmod('d', 0o700)).toBe(0o700);
    });

    it('never follows a final link, never touches a file: NOT_A_DIRECTORY; NOT_FOUND for nothing', async () => {
      await fixture().seed.dir('real-dir');
      await fixture().seed.symlink('dir-link', 'real-dir');
      await fixture().seed.file('a.txt', 'x');
      await expectError(chmod('dir-link', 0o700), 'NOT_A_DIRECTORY');
      await expectError(chmod('a.txt', 0o700), 'NOT_A_DIRECTORY');
      await expectError(chmod('missing', 0o700), 'NOT_FOUND');
      expect((await statOf('real-dir'))?.permissions).toBe(0o755);
      expect((await statOf('a.txt'))?.permissions).not.toBe(0o700);
    });

    it.each(DIRECTORY_ESCAPES)('refuses a directory reached through %s', async (_label, rel) => {
      await seedEscapes(fixture());
      const before = fixture().inspect.outsideEntries();
      await expectError(chmod(`${rel}/sub`, 0o777), 'ACCESS_DENIED');
      expectOutsideUntouched(before);
    });
  });
}
