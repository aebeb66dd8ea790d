import type { EntryKind } from '../../../../src/domain/ports/file-system.port.js';
import type { ScannedEntry, TreeScanOptions } from '../../../../src/domain/ports/tree-scan-types.js';
import type { ContractContext } from '../file-system.contract.js';
import { DIRECTORY_ESCAPES, FILE_ESCAPES, REAL, SECRET, seedEscapes } from './escapes.js';

/** scanTree: the coarse walk glob runs on. */
export function describeScanContract({ fixture, at, expectError }: ContractContext): void {
  const seed = () => fixture().seed;

  /** Every batch's selected entries, in order, and every (path, kind) that `select` was asked about. */
  const scan = async (rel: string, options: Partial<TreeScanOptions> = {}) => {
    const asked: string[] = [];
    const selected: ScannedEntry[] = [];
    let scanned = 0;
    const select = options.select ?? (() => true);
    for await (const batch of fixture().fs.scanTree(at(rel), {
      ...options,
      select: (path: string, kind: EntryKind) => {
        asked.push(`${path}:${kind}`);
        return select(path, kind);
      },
    })) {
      scanned += batch.scanned;
      selected.push(...batch.selected);
    }
    return { asked, selected, scanned, paths: selected.map((entry) => entry.relativePath) };
  };

  describe('scanTree', () => {
    it('walks depth-first, names in code point order, and stats only the entries selected', async () => {
      await seed().file('b.txt', 'bb');
      await seed().file('a/z.ts', 'zzz');
      await seed().file('a/b/c.ts', 'c');
      await seed().file('a.ts', 'a');
      await seed().dir('a-empty');
      await seed().file('\u{1F600}.ts', 'emoji');
      await seed().file('\uFF21.ts', 'fullwidth');
      const result = await scan('', { select: (path, kind) => kind === 'file' && path.endsWith('.ts') });
      // Each entry is asked about once (in no promised order: an adapter may judge a whole directory at once).
      expect([...result.asked].sort()).toEqual(
        ['a:directory', 'a/b:directory', 'a/b/c.ts:file', 'a/z.ts:file', 'a-empty:directory', 'a.ts:file', 'b.txt:file', '\uFF21.ts:file', '\u{1F600}.ts:file'].sort(),
      );
      expect(result.scanned).toBe(9);
      expect(result.paths).toEqual(['a/b/c.ts', 'a/z.ts', 'a.ts', '\uFF21.ts', '\u{1F600}.ts']);
      expect(result.selected.map((entry) => [entry.stat.name, entry.stat.kind, entry.stat.size])).toEqual([
        ['c.ts', 'file', 1], ['z.ts', 'file', 3], ['a.ts', 'file', 1], ['\uFF21.ts', 'file', 9], ['\u{1F600}.ts', 'file', 5],
      ]);
      expect(result.selected[0].stat.modifiedAt).toBeInstanceOf(Date);
    });

    it('stamps each entry with the inode stat gives it, one per file', async () => {
      await seed().file('a.txt', 'a');
      await seed().file('d/b.txt', 'b');
      const { selected } = await scan('', { select: (_path, kind) => kind === 'file' });
      const inodes = selected.map((entry) => entry.stat.inode);
      expect(inodes.every((inode) => Number.isInteger(inode) && inode > 0)).toBe(true);
      expect(new Set(inodes).size).toBe(2);
      expect(inodes).toEqual([(await fixture().fs.stat(at('a.txt')))!.inode, (await fixture().fs.stat(at('d/b.txt')))!.inode]);
    });

    it('reports links as entries and never walks through one, in or out of the root', async () => {
      await seedEscapes(fixture());
      await seed().file('dir/inner.txt', 'x');
      await seed().symlink('in-link', 'dir');
      const result = await scan('');
      expect(result.paths).toContain('in-link');
      expect(result.selected.find((entry) => entry.relativePath === 'in-link')?.stat.kind).toBe('symlink');
      expect(result.selected.find((entry) => entry.relativePath === 'in-link')?.stat.link).toBeUndefined();
      for (const [, rel] of DIRECTORY_ESCAPES) expect(result.asked).toContain(`${rel}:symlink`);
      expect(result.paths.filter((path) => path.endsWith('inner.txt'))).toEqual(['dir/inner.txt']);
      expect(result.paths.filter((path) => path.includes('secret.txt'))).toEqual([]);
    });

    it('stops at maxDepth: directories there are reported, not entered', async () => {
      await seed().file('a/b/c/d.txt', 'd');
      expect((await scan('', { maxDepth: 2 })).paths).toEqual(['a', 'a/b']);
      expect((await scan('', { maxDepth: 1 })).paths).toEqual(['a']);
    });

    it('starts below the root, through an in-root link, with paths relative to the start', async () => {
      await seed().file('deep/sub/x.txt', 'x');
      await seed().symlink('alias', 'deep');
      expect((await scan('deep')).paths).toEqual(['sub', 'sub/x.txt']);
      expect((await scan('alias')).paths).toEqual(['sub', 'sub/x.txt']);
    });

    it('refuses a start that leaves the root, is missing or is not a directory', async () => {
      await seedEscapes(fixture());
      for (const [, rel] of DIRECTORY_ESCAPES) await expectError(scan(rel), 'ACCESS_DENIED');
      await expectError(scan('missing'), 'NOT_FOUND');
      await expectError(scan('real.txt'), 'NOT_A_DIRECTORY');
    });

    it('with readContents, carries the bytes of selected regular files up to maxBytes, never of a link, a directory or a bigger file', async () => {
      await seedEscapes(fixture());
      await seed().file('dir/inner.txt', 'inner');
      await seed().file('big.txt', 'x'.repeat(101));
      await seed().file('edge.txt', 'y'.repeat(100));
      await seed().symlink('in-link.txt', 'real.txt');
      const result = await scan('', { readContents: { maxBytes: 100 } });
      const contents = new Map(result.selected.map((entry) => [entry.relativePath, entry.contents && new TextDecoder().decode(entry.contents)]));
      expect(contents.get('real.txt')).toBe(REAL);
      expect(contents.get('dir/inner.txt')).toBe('inner');
      expect(contents.get('edge.txt')).toBe('y'.repeat(100));
      expect(contents.get('big.txt')).toBeUndefined();
      expect(contents.get('dir')).toBeUndefined();
      expect(contents.get('in-link.txt')).toBeUndefined();
      for (const [, rel] of FILE_ESCAPES) expect({ rel, contents: contents.get(rel) }).toEqual({ rel, contents: undefined });
      for (const entry of result.selected) if (entry.stat.kind !== 'file') expect(entry.contents).toBeUndefined();
      expect([...contents.values()].filter((text) => text?.includes(SECRET))).toEqual([]);
    });

    it('with readContents, carries each file of a directory of many its own bytes, in order', async () => {
      for (let i = 0; i < 40; i++) await seed().file(`many/f${String(i).padStart(2, '0')}.txt`, `file ${i}`);
      await seed().file('many/f20-big.txt', 'x'.repeat(101));
      await seed().symlink('many/f30-link.txt', 'f01.txt');
      const result = await scan('many', { readContents: { maxBytes: 100 } });
      const texts = result.selected.map((entry) => `${entry.relativePath}=${entry.contents ? new TextDecoder().decode(entry.contents) : '-'}`);
      const expected = Array.from({ length: 40 }, (_, i) => `f${String(i).padStart(2, '0')}.txt=file ${i}`);
      expected.splice(20, 0, 'f20-big.txt=-');
      expected.splice(31, 0, 'f30-link.txt=-');
      expect(texts).toEqual(expected);
    });

    it('without readContents, carries no bytes', async () => {
      await seed().file('a.txt', 'a');
      expect((await scan('')).selected.map((entry) => entry.contents)).toEqual([undefined]);
    });

    it('with prune, passes over an entry entirely: not selected, and a pruned directory not entered', async () => {
      await seed().file('keep/a.txt', 'a');
      await seed().file('skip/deep/b.txt', 'b');
      await seed().file('keep/skip.log', 'log');
      const result = await scan('', { prune: (path, kind) => (path === 'skip' && kind === 'directory') || path.endsWith('.log') });
      expect(result.paths).toEqual(['keep', 'keep/a.txt']);
      // Pruned entries are neither asked about by select nor walked into; they still count as scanned.
      expect(result.asked.filter((asked) => asked.startsWith('skip') || asked.endsWith('.log:file'))).toEqual([]);
      expect(result.scanned).toBe(4);
    });

    it('passes over names of our own work files, unless includeWorkNames asks for them (a before-image holds everything)', async () => {
      await seed().file('a/.mcp-fs-0123456789abcdef.tmp/inside.txt', 'kept');
      await seed().file('.mcp-fs-0123456789abcdef.lock', 'lock');
      await seed().file('a/b.txt', 'b');
      expect((await scan('')).paths).toEqual(['a', 'a/b.txt']);
      expect((await scan('', { includeWorkNames: true })).paths).toEqual([
        '.mcp-fs-0123456789abcdef.lock',
        'a',
        'a/.mcp-fs-0123456789abcdef.tmp',
        'a/.mcp-fs-0123456789abcdef.tmp/inside.txt',
        'a/b.txt',
      ]);
    });

    it('with directoryFiles, reads the named regular files of each directory entered before judging its entries', async () => {
      await seedEscapes(fixture());
      await seed().file('.gitignore', 'root rules');
      await seed().file('dir/.gitignore', 'dir rules');
      await seed().file('dir/sub/.ignore', 'x'.repeat(101));
      await seed().file('dir/sub/.gitignore', 'sub rules');
      await seed().file('dir/sub/leaf.txt', 'leaf');
      await seed().symlink('linked/.gitignore', '../real.txt');
      await seed().linkToOutside('outside/.gitignore', 'secret.txt');
      const events: string[] = [];
      const found = new Map<string, string[]>();
      const result = await scan('', {
        directoryFiles: {
          names: ['.gitignore', '.ignore'],
          maxBytes: 100,
          found: (dir, files) => {
            events.push(`found ${dir}`);
            found.set(dir, files.map((file) => `${file.name}=${new TextDecoder().decode(file.contents)}`));
          },
        },
        select: (path) => {
          const parent = path.includes('/') ? path.slice(0, path.lastIndexOf('/')) : '';
          // Rule files come before any entry of their directory is judged.
          expect({ path, parentFound: events.includes(`found ${parent}`) }).toEqual({ path, parentFound: true });
          return true;
        },
      });
      expect(found.get('')).toEqual(['.gitignore=root rules']);
      expect(found.get('dir')).toEqual(['.gitignore=dir rules']);
      // A file over maxBytes is left out; a link (in or out of the root) is never read.
      expect(found.get('dir/sub')).toEqual(['.gitignore=sub rules']);
      expect(found.get('linked')).toEqual([]);
      expect(found.get('outside')).toEqual([]);
      expect([...found.values()].flat().filter((text) => text.includes(SECRET) || text.includes(REAL))).toEqual([]);
      expect(result.paths).toContain('dir/sub/leaf.txt');
    });

    it('may be stopped between batches', async () => {
      for (let i = 0; i < 20; i++) await seed().file(`d${i}/f.txt`, 'f');
      let batches = 0;
      for await (const batch of fixture().fs.scanTree(at(''), { select: () => true })) {
        batches += 1;
        expect(batch.selected.length).toBeGreaterThan(0);
        break;
      }
      expect(batches).toBe(1);
      // The tree can be scanned again (nothing was left held or changed).
      expect((await scan('')).paths).toHaveLength(40);
    });
  });
}
