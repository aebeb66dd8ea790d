import { MAX_SYMLINK_HOPS } from '../../../../src/domain/path-policy.js';
import { type ContractContext, decode } from '../file-system.contract.js';
import { DIRECTORY_ESCAPES, FILE_ESCAPES, REAL, seedEscapes } from './escapes.js';

/** stat, readDirectory, openFile and how links are judged along the way. */
export function describeReadContract({ fixture, at, expectError, statOf }: ContractContext): void {
  const seedChain = async (length: number): Promise<string> => {
    await fixture().seed.file('real.txt', REAL);
    for (let i = 0; i < length; i += 1) await fixture().seed.symlink(`l${i}`, i === length - 1 ? 'real.txt' : `l${i + 1}`);
    return 'l0';
  };

  describe('stat', () => {
    it('describes a regular file without following anything', async () => {
      await fixture().seed.file('a.txt', 'hello', 0o640);
      const stat = await statOf('a.txt');
      expect(stat).toMatchObject({ name: 'a.txt', kind: 'file', size: 5, permissions: 0o640 });
      expect(stat?.modifiedAt).toBeInstanceOf(Date);
      expect(typeof stat?.uid).toBe('number');
      expect(typeof stat?.gid).toBe('number');
      expect(stat?.link).toBeUndefined();
    });

    it('describes directories, including the root itself', async () => {
      await fixture().seed.dir('d');
      expect(await statOf('d')).toMatchObject({ name: 'd', kind: 'directory' });
      expect(await statOf('')).toMatchObject({ kind: 'directory' });
    });

    it('returns null when nothing is there, even below a missing directory or a file', async () => {
      await fixture().seed.file('a.txt', 'x');
      expect(await statOf('missing.txt')).toBeNull();
      expect(await statOf('missing/deeper.txt')).toBeNull();
      expect(await statOf('a.txt/b')).toBeNull();
      expect(await statOf('a.txt/b', true)).toBeNull();
    });

    it('E2E-034: describes an in-root link and, when asked, follows it to its target', async () => {
      await fixture().seed.file('target.txt', 'twelve bytes');
      await fixture().seed.symlink('link', 'target.txt');
      const link = await statOf('link');
      expect(link).toMatchObject({ name: 'link', kind: 'symlink' });
      expect(link?.link).toMatchObject({ text: 'target.txt', resolution: 'inside', targetKind: 'file' });
      expect(link?.link?.resolvedPath?.segments).toEqual(['target.txt']);
      expect(await statOf('link', true)).toMatchObject({ kind: 'file', size: 12 });
    });

    it('resolves absolute link text inside the root and chains of links', async () => {
      await fixture().seed.dir('d');
      await fixture().seed.symlink('abs', `${fixture().root.hostPath}/d`);
      await fixture().seed.symlink('chain', 'abs');
      const chain = await statOf('chain');
      expect(chain?.link).toMatchObject({ resolution: 'inside', targetKind: 'directory' });
      expect(chain?.link?.resolvedPath?.segments).toEqual(['d']);
      expect(await statOf('chain', true)).toMatchObject({ kind: 'directory' });
    });

    it("resolves '..' in link text lexically from the link's own directory (PathPolicy), not physically", async () => {
      await fixture().seed.file('real/a.txt', 'real');
      await fixture().seed.dir('real/sub');
      await fixture().seed.file('other/a.txt', 'other');
      await fixture().seed.symlink('other/sub-link', '../real/sub');
      await fixture().seed.symlink('other/up', 'sub-link/../a.txt');
      expect((await statOf('other/up'))?.link?.resolvedPath?.segments).toEqual(['other', 'a.txt']);
      expect(await statOf('other/up', true)).toMatchObject({ kind: 'file', size: 5 });
    });

    it('reports a dangling in-root link as missing, and null when followed', async () => {
      await fixture().seed.symlink('dangling', 'sub/nothing.txt');
      const stat = await statOf('dangling');
      expect(stat?.link).toMatchObject({ text: 'sub/nothing.txt', resolution: 'missing' });
      expect(stat?.link?.resolvedPath?.segments).toEqual(['sub', 'nothing.txt']);
      expect(stat?.link?.targetKind).toBeUndefined();
      expect(await statOf('dangling', true)).toBeNull();
    });

    it.each(FILE_ESCAPES)('reports %s as outside and refuses to follow it', async (_label, rel) => {
      await seedEscapes(fixture());
      const stat = await statOf(rel);
      expect(stat?.kind).toBe('symlink');
      expect(stat?.link?.resolution).toBe('outside');
      expect(stat?.link?.resolvedPath).toBeUndefined();
      expect(stat?.link?.targetKind).toBeUndefined();
      await expectError(statOf(rel, true), 'ACCESS_DENIED');
    });

    it.each(DIRECTORY_ESCAPES)('refuses a path through %s, followed or not', async (_label, rel) => {
      await seedEscapes(fixture());
      await expectError(statOf(`${rel}/secret.txt`), 'ACCESS_DENIED');
      await expectError(statOf(`${rel}/secret.txt`, true), 'ACCESS_DENIED');
    });

    it('reports loops, and refuses to follow them with a clear reason', async () => {
      await fixture().seed.symlink('loop-a', 'loop-b');
      await fixture().seed.symlink('loop-b', 'loop-a');
      await fixture().seed.symlink('self', 'self');
      expect((await statOf('loop-a'))?.link?.resolution).toBe('loop');
      expect((await statOf('self'))?.link?.resolution).toBe('loop');
      const error = await expectError(statOf('loop-a', true), 'ACCESS_DENIED');
      expect(error.message).toMatch(/too many levels of symbolic links/);
    });

    it(`follows a chain of exactly ${MAX_SYMLINK_HOPS} links but not one more`, async () => {
      const start = await seedChain(MAX_SYMLINK_HOPS);
      expect((await statOf(start))?.link).toMatchObject({ resolution: 'inside', targetKind: 'file' });
      expect(await statOf(start, true)).toMatchObject({ kind: 'file' });
      await fixture().seed.symlink('one-more', start);
      expect((await statOf('one-more'))?.link?.resolution).toBe('loop');
      await expectError(statOf('one-more', true), 'ACCESS_DENIED');
    });

    it('goes through an in-root link to a directory in the middle of a path', async () => {
      await fixture().seed.file('real-dir/inner.txt', 'inner');
      await fixture().seed.symlink('dir-link', 'real-dir');
      expect(await statOf('dir-link/inner.txt')).toMatchObject({ name: 'inner.txt', kind: 'file', size: 5 });
    });
  });

  describe('readDirectory', () => {
    const namesOf = async (rel: string) => (await fixture().fs.readDirectory(at(rel))).map((e) => e.name).sort();

    it('lists every entry, not followed, with link information', async () => {
      await fixture().seed.file('d/a.txt', 'aaa');
      await fixture().seed.dir('d/sub');
      await fixture().seed.symlink('d/link', 'a.txt');
      await fixture().seed.symlink('d/dangling', 'nothing');
      await fixture().seed.linkToOutside('d/escape', 'secret.txt');
      await fixture().seed.outsideFile('secret.txt', 'secret');
      const entries = await fixture().fs.readDirectory(at('d'));
      const byName = new Map(entries.map((entry) => [entry.name, entry]));
      expect([...byName.keys()].sort()).toEqual(['a.txt', 'dangling', 'escape', 'link', 'sub']);
      expect(byName.get('a.txt')).toMatchObject({ kind: 'file', size: 3 });
      expect(byName.get('sub')).toMatchObject({ kind: 'directory' });
      expect(byName.get('link')).toMatchObject({ kind: 'symlink', link: { resolution: 'inside', targetKind: 'file' } });
      expect(byName.get('link')?.link?.resolvedPath?.segments).toEqual(['d', 'a.txt']);
      expect(byName.get('dangling')?.link?.resolution).toBe('missing');
      expect(byName.get('escape')?.link?.resolution).toBe('outside');
    });

    it('leaves links undescribed when asked to (tree walks never follow them)', async () => {
      await fixture().seed.file('d/a.txt', 'aaa');
      await fixture().seed.symlink('d/link', 'a.txt');
      const entries = await fixture().fs.readDirectory(at('d'), { describeLinks: false });
      const link = entries.find((entry) => entry.name === 'link');
      expect(link).toMatchObject({ kind: 'symlink' });
      expect(link?.link).toBeUndefined();
    });

    it('lists the root itself and an empty directory', async () => {
      await fixture().seed.dir('empty');
      expect(await namesOf('')).toEqual(['empty']);
      expect(await namesOf('empty')).toEqual([]);
    });

    it('follows an in-root link to reach the directory', async () => {
      await fixture().seed.file('real-dir/inner.txt', 'x');
      await fixture().seed.symlink('dir-link', 'real-dir');
      expect(await namesOf('dir-link')).toEqual(['inner.txt']);
    });

    it('fails with NOT_FOUND, NOT_A_DIRECTORY as appropriate', async () => {
      await fixture().seed.file('a.txt', 'x');
      await expectError(fixture().fs.readDirectory(at('missing')), 'NOT_FOUND');
      await expectError(fixture().fs.readDirectory(at('a.txt')), 'NOT_A_DIRECTORY');
    });

    it.each(DIRECTORY_ESCAPES)('refuses to list through %s', async (_label, rel) => {
      await seedEscapes(fixture());
      await expectError(fixture().fs.readDirectory(at(rel)), 'ACCESS_DENIED');
    });
  });

  describe('openFile', () => {
    const readAll = async (rel: string): Promise<string> => {
      const file = await fixture().fs.openFile(at(rel));
      try {
        return decode(await file.read(0, file.stat.size));
      } finally {
        await file.close();
      }
    };

    it('words a missing folder on the way alike on both adapters, and a missing file as the file', async () => {
      expect((await expectError(fixture().fs.openFile(at('no-dir/a.txt')), 'NOT_FOUND')).message).toMatch(/^path not found: no-dir\/a\.txt/);
      expect((await expectError(fixture().fs.openFile(at('missing.txt')), 'NOT_FOUND')).message).toMatch(/^file not found: missing\.txt/);
    });

    it('reads any range positionally and reports the file stat', async () => {
      await fixture().seed.file('a.txt', '0123456789', 0o600);
      const file = await fixture().fs.openFile(at('a.txt'));
      expect(file.stat).toMatchObject({ kind: 'file', size: 10, permissions: 0o600 });
      expect(decode(await file.read(3, 4))).toBe('3456');
      expect(decode(await file.read(0, 2))).toBe('01');
      expect(decode(await file.read(8, 100))).toBe('89');
      expect((await file.read(10, 5)).length).toBe(0);
      await file.close();
    });

    it('IO_ERROR when reading after close', async () => {
      await fixture().seed.file('a.txt', 'x');
      const file = await fixture().fs.openFile(at('a.txt'));
      await file.close();
      await expectError(file.read(0, 1), 'IO_ERROR');
    });

    it('E2E-065: follows in-root links, also through a directory link', async () => {
      await fixture().seed.file('real.txt', 'real');
      await fixture().seed.symlink('link.txt', 'real.txt');
      await fixture().seed.file('real-dir/inner.txt', 'inner');
      await fixture().seed.symlink('dir-link', 'real-dir');
      expect(await readAll('link.txt')).toBe('real');
      expect(await readAll('dir-link/inner.txt')).toBe('inner');
      const file = await fixture().fs.openFile(at('link.txt'));
      try {
        expect(file.stat.kind).toBe('file');
      } finally {
        await file.close();
      }
    });

    it.each(FILE_ESCAPES)('E2E-064: refuses %s', async (_label, rel) => {
      await seedEscapes(fixture());
      await expectError(fixture().fs.openFile(at(rel)), 'ACCESS_DENIED');
    });

    it.each(DIRECTORY_ESCAPES)('refuses a file reached through %s', async (_label, rel) => {
      await seedEscapes(fixture());
      await expectError(fixture().fs.openFile(at(`${rel}/secret.txt`)), 'ACCESS_DENIED');
    });

    it('refuses loops', async () => {
      await fixture().seed.symlink('self', 'self');
      await expectError(fixture().fs.openFile(at('self')), 'ACCESS_DENIED');
      await expectError(fixture().fs.openFile(at(await seedChain(MAX_SYMLINK_HOPS + 1))), 'ACCESS_DENIED');
    });

    it('fails with IS_A_DIRECTORY, NOT_FOUND, NOT_A_DIRECTORY as appropriate', async () => {
      await fixture().seed.dir('d');
      await fixture().seed.file('a.txt', 'x');
      await fixture().seed.symlink('dangling', 'nothing.txt');
      await expectError(fixture().fs.openFile(at('d')), 'IS_A_DIRECTORY');
      await expectError(fixture().fs.openFile(at('')), 'IS_A_DIRECTORY');
      await expectError(fixture().fs.openFile(at('missing.txt')), 'NOT_FOUND');
      await expectError(fixture().fs.openFile(at('dangling')), 'NOT_FOUND');
      await expectError(fixture().fs.openFile(at('a.txt/b.txt')), 'NOT_A_DIRECTORY');
    });
  });
}
