import { InMemoryFileSystem } from '../../../src/adapters/outbound/in-memory-file-system.js';
import { Re2RegexEngine } from '../../../src/adapters/outbound/re2-regex-engine.js';
import type { FileSystemPort } from '../../../src/domain/ports/file-system.port.js';
import type { Root, RootPath } from '../../../src/domain/roots.js';
import { IgnoreRuleCache } from '../../../src/domain/search/ignore-rule-cache.js';
import { SearchIndexes, type SearchIndexSettings } from '../../../src/domain/search/search-indexes.js';
import { Glob } from '../../../src/domain/tools/glob.js';
import { Grep, type GrepInput } from '../../../src/domain/tools/grep.js';
import { rootAccess } from '../../support/domain.js';
import { makeRoot } from '../../support/roots.js';
import { searchSettings, SteppingClock } from './search-harness.js';

const INDEX: SearchIndexSettings = { mode: 'auto', maxBytes: 1 << 20, minRootBytes: 0, maxFileBytes: 1 << 20, ignore: 'gitignore' };

let fs: InMemoryFileSystem;
let root: Root;
let opened: string[];

/** The in-memory file system, recording the files grep opens to search (by path; ignore files are left out). */
function recording(): FileSystemPort {
  const port: FileSystemPort = Object.create(fs);
  port.openFile = async (path: RootPath) => {
    if (path.segments.at(-1) !== '.gitignore') opened.push(path.segments.join('/'));
    return fs.openFile(path);
  };
  return port;
}

function grepper(indexes?: SearchIndexes): Grep {
  return new Grep(recording(), new SteppingClock(0), new Re2RegexEngine(), searchSettings(1000), rootAccess(root), new IgnoreRuleCache(), indexes);
}

async function built(settings: SearchIndexSettings = INDEX): Promise<SearchIndexes> {
  const indexes = new SearchIndexes(fs, settings, new IgnoreRuleCache());
  expect(indexes.ready(root)).toBeUndefined();
  await indexes.settled(root);
  return indexes;
}

const run = (grep: Grep, input: Omit<GrepInput, 'root'>) => grep.execute({ root: 'workspace', ...input });

beforeEach(() => {
  fs = new InMemoryFileSystem();
  fs.seedDirectory('/ws');
  root = makeRoot('workspace', '/ws', ['*']);
  opened = [];
  fs.seedFile('/ws/src/a.ts', 'export const needle = 1;\n');
  fs.seedFile('/ws/src/b.ts', 'const hay = 2;\n');
  fs.seedFile('/ws/docs/c.md', 'no Needle here\nbut a needle there\n');
  fs.seedFile('/ws/blob.bin', new Uint8Array([0x6e, 0x65, 0x65, 0x64, 0x6c, 0x65, 0, 1]));
  fs.seedFile('/ws/.gitignore', 'ignored/\n');
  fs.seedFile('/ws/ignored/d.ts', 'needle\n');
});

describe('Grep with a trigram index', () => {
  it('answers as a scan does, opening only the candidates', async () => {
    const indexes = await built();
    for (const input of [{ pattern: 'needle' }, { pattern: 'NEEDLE', case_insensitive: true }, { pattern: 'hay|needle', path: 'src' }, { pattern: 'needle', ignore: 'none' }]) {
      const scan = await run(grepper(), input);
      opened = [];
      expect(await run(grepper(indexes), input)).toEqual(scan);
      // Only files holding the trigrams are read (an ignored file, never indexed, is read when a call asks for it).
      for (const path of opened) expect(['src/a.ts', 'docs/c.md', 'src/b.ts', 'ignored/d.ts']).toContain(path);
      expect(opened).not.toContain('blob.bin');
    }
    opened = [];
    await run(grepper(indexes), { pattern: 'needle' });
    expect(opened.sort()).toEqual(['docs/c.md', 'src/a.ts']);
  });

  it('scans for a pattern that requires no trigram (every file read ahead by the walk, none opened alone)', async () => {
    const indexes = await built();
    const scan = await run(grepper(), { pattern: '\\d' });
    opened = [];
    expect(await run(grepper(indexes), { pattern: '\\d' })).toEqual(scan);
    expect(opened).toEqual([]);
    await run(grepper(indexes), { pattern: 'needle' });
    expect(opened).not.toEqual([]);
  });

  it('is never stale: finds a file created or rewritten since the build, never reports one deleted, renamed or swapped for a link', async () => {
    const indexes = await built();
    fs.seedFile('/ws/src/new.ts', 'needle just made\n');
    fs.seedFile('/ws/src/b.ts', 'now a needle too\n');
    await fs.removeFile({ root, segments: ['src', 'a.ts'] });
    await fs.rename({ root, segments: ['docs', 'c.md'] }, { root, segments: ['docs', 'moved.md'] });
    fs.seedSymlink('/ws/link.ts', 'src/new.ts');
    const indexed = await run(grepper(indexes), { pattern: 'needle' });
    expect(indexed).toEqual(await run(grepper(), { pattern: 'needle' }));
    expect(indexed.matches.map((match) => match.file).sort()).toEqual(['docs/moved.md', 'src/b.ts', 'src/new.ts']);
  });

  it('learns what a grep had to read: the next grep opens only candidates again', async () => {
    const indexes = await built();
    fs.seedFile('/ws/src/new.ts', 'nothing to see\n');
    fs.seedFile('/ws/src/b.ts', 'still nothing\n');
    await run(grepper(indexes), { pattern: 'needle' });
    expect(opened.sort()).toEqual(['docs/c.md', 'src/a.ts', 'src/b.ts', 'src/new.ts']);
    await indexes.settled(root);
    opened = [];
    await run(grepper(indexes), { pattern: 'needle' });
    expect(opened.sort()).toEqual(['docs/c.md', 'src/a.ts']);
  });

  it('counts the files it vouches for as searched, and leaves binary ones uncounted, as a scan does', async () => {
    const indexes = await built();
    const scan = await run(grepper(), { pattern: 'absent' });
    opened = [];
    const indexed = await run(grepper(indexes), { pattern: 'absent' });
    expect(indexed).toEqual(scan);
    expect(indexed.files_searched).toBe(4);
    expect(opened).toEqual([]);
  });
});

describe('SearchIndexes', () => {
  it('waits while a search runs, then builds', async () => {
    const indexes = new SearchIndexes(fs, INDEX, new IgnoreRuleCache());
    const searchEnded = indexes.searchStarted();
    expect(indexes.ready(root)).toBeUndefined();
    await new Promise((resolve) => setTimeout(resolve, 30));
    expect(indexes.ready(root)).toBeUndefined();
    searchEnded();
    await indexes.settled(root);
    expect(indexes.ready(root)?.paths().sort()).toEqual(['.gitignore', 'blob.bin', 'docs/c.md', 'src/a.ts', 'src/b.ts']);
  });

  it('walks once the searches running have ended and the walk it waits for (the root snapshot) is done, not before', async () => {
    const order: string[] = [];
    const port: FileSystemPort = Object.create(fs);
    port.scanTree = (start, options) => {
      order.push('index walk');
      return fs.scanTree(start, options);
    };
    let snapshotDone!: () => void;
    const snapshot = new Promise<void>((resolve) => (snapshotDone = resolve));
    const indexes = new SearchIndexes(port, INDEX, new IgnoreRuleCache(), undefined, async (asked) => {
      order.push(`snapshot of ${asked.name}`);
      await snapshot;
    });
    const searchEnded = indexes.searchStarted();
    indexes.ready(root);
    await new Promise((resolve) => setTimeout(resolve, 30));
    // The first search's walk runs alone.
    expect(order).toEqual([]);
    searchEnded();
    await new Promise((resolve) => setTimeout(resolve, 30));
    expect(order).toEqual(['snapshot of workspace']);
    snapshotDone();
    await indexes.settled(root);
    expect(order).toEqual(['snapshot of workspace', 'index walk']);
    expect(indexes.ready(root)?.paths()).toContain('src/a.ts');
  });

  it('waits while a glob runs too (a glob tells the indexes it searches)', async () => {
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    const port: FileSystemPort = Object.create(fs);
    port.scanTree = async function* (start, options) {
      await held;
      yield* fs.scanTree(start, options);
    };
    const indexes = new SearchIndexes(fs, INDEX, new IgnoreRuleCache());
    const glob = new Glob(port, new SteppingClock(0), new Re2RegexEngine(), searchSettings(1000), rootAccess(root), new IgnoreRuleCache(), indexes);
    const globbing = glob.execute({ root: 'workspace', pattern: '**/*.ts' });
    indexes.ready(root);
    await new Promise((resolve) => setTimeout(resolve, 30));
    expect(indexes.ready(root)).toBeUndefined();
    release();
    expect((await globbing).matches.map((match) => match.path).sort()).toEqual(['src/a.ts', 'src/b.ts']);
    await indexes.settled(root);
    expect(indexes.ready(root)?.paths()).toContain('src/a.ts');
  });

  it('builds all the same when the walk it waits for fails', async () => {
    const indexes = new SearchIndexes(fs, INDEX, new IgnoreRuleCache(), undefined, async () => {
      throw new Error('no snapshot');
    });
    indexes.ready(root);
    await indexes.settled(root);
    expect(indexes.ready(root)?.paths()).toContain('src/a.ts');
  });

  it('yields to a search that starts within a batch, before the next file of it', async () => {
    // Files past the read-ahead size are each opened by the build, one batch (one folder) for all three.
    for (const name of ['x', 'y', 'z']) fs.seedFile(`/ws/large/${name}.txt`, `${name.repeat(300 * 1024)}\n`);
    const building: string[] = [];
    let searchEnded: (() => void) | undefined;
    const port: FileSystemPort = Object.create(fs);
    port.openFile = async (path: RootPath) => {
      building.push(path.segments.join('/'));
      searchEnded ??= indexes.searchStarted();
      return fs.openFile(path);
    };
    const indexes = new SearchIndexes(port, { ...INDEX, maxBytes: 1 << 24 }, new IgnoreRuleCache());
    indexes.ready(root);
    try {
      while (searchEnded === undefined) await new Promise((resolve) => setTimeout(resolve, 1));
      await new Promise((resolve) => setTimeout(resolve, 30));
      expect(building).toEqual(['large/x.txt']);
    } finally {
      searchEnded?.();
    }
    await indexes.settled(root);
    expect(building).toEqual(['large/x.txt', 'large/y.txt', 'large/z.txt']);
    expect(indexes.ready(root)?.paths()).toEqual(expect.arrayContaining(['large/x.txt', 'large/y.txt', 'large/z.txt']));
  });

  it('keeps no index when off, or for a root smaller than min_root_bytes', async () => {
    const off = await built({ ...INDEX, mode: 'off' });
    expect(off.ready(root)).toBeUndefined();
    const small = await built({ ...INDEX, minRootBytes: 10_000 });
    expect(small.ready(root)).toBeUndefined();
  });

  it('leaves out a file past max_file_size; grep then reads it every time', async () => {
    fs.seedFile('/ws/big.txt', `${'x'.repeat(300 * 1024)}\nneedle\n`);
    const indexes = await built({ ...INDEX, maxFileBytes: 1024, maxBytes: 1 << 24 });
    expect(indexes.ready(root)?.paths()).not.toContain('big.txt');
    opened = [];
    expect((await run(grepper(indexes), { pattern: 'needle' })).matches.map((match) => match.file)).toContain('big.txt');
    expect(opened).toContain('big.txt');
  });
});
