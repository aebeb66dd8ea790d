import { InMemoryFileSystem } from '../../src/adapters/outbound/in-memory-file-system.js';
import type { EntryStat, FileSystemPort } from '../../src/domain/ports/file-system.port.js';
import { displayPath, type RootPath } from '../../src/domain/roots.js';
import { walkTree, type WalkEntry, type WalkOptions } from '../../src/domain/tree-walker.js';
import { makeRoot } from '../support/roots.js';

const root = makeRoot('workspace', '/ws');
const at = (rel: string): RootPath => ({ root, segments: rel === '' ? [] : rel.split('/') });

async function collect(fs: FileSystemPort, start: RootPath, options?: WalkOptions): Promise<WalkEntry[]> {
  const entries: WalkEntry[] = [];
  for await (const entry of walkTree(fs, start, options)) entries.push(entry);
  return entries;
}

const summary = (entries: WalkEntry[]) => entries.map((e) => `${e.depth} ${e.stat.kind} ${e.relativePath}`);

/** Records every directory the walker asks the port to list. */
function listingRecorder(fs: InMemoryFileSystem): { port: FileSystemPort; listed: string[] } {
  const listed: string[] = [];
  const port: FileSystemPort = Object.create(fs);
  port.readDirectory = async (path: RootPath): Promise<EntryStat[]> => {
    listed.push(displayPath(path));
    return fs.readDirectory(path);
  };
  return { port, listed };
}

describe('walkTree', () => {
  let fs: InMemoryFileSystem;

  beforeEach(() => {
    fs = new InMemoryFileSystem();
    fs.seedDirectory('/ws');
  });

  it('walks depth-first, pre-order, names sorted, with depth 1 directly in the start', async () => {
    fs.seedFile('/ws/b.txt', 'b');
    fs.seedFile('/ws/a/z.txt', 'z');
    fs.seedFile('/ws/a/inner/deep.txt', 'd');
    fs.seedDirectory('/ws/a/empty');
    fs.seedFile('/ws/a-b.txt', 'ab');

    expect(summary(await collect(fs, at('')))).toEqual([
      '1 directory a',
      '2 directory a/empty',
      '2 directory a/inner',
      '3 file a/inner/deep.txt',
      '2 file a/z.txt',
      '1 file a-b.txt',
      '1 file b.txt',
    ]);
  });

  it('sorts names in code point order, not UTF-16 order (astral characters after U+FFFD)', async () => {
    for (const name of ['\u{1F600}', '\uFFFD', 'b', 'B']) fs.seedFile(`/ws/${name}`, '');

    expect((await collect(fs, at(''))).map((e) => e.relativePath)).toEqual(['B', 'b', '\uFFFD', '\u{1F600}']);
  });

  it('gives paths relative to the start and in-root paths relative to the root', async () => {
    fs.seedFile('/ws/src/pkg/util.go', 'package util');

    const [entry] = await collect(fs, at('src/pkg'));
    expect(entry.relativePath).toBe('util.go');
    expect(displayPath(entry.path)).toBe('src/pkg/util.go');
    expect(entry.stat).toMatchObject({ name: 'util.go', kind: 'file', size: 12 });
  });

  it('stops descending at maxDepth but still yields the directories at that depth', async () => {
    fs.seedFile('/ws/top.txt', 't');
    fs.seedFile('/ws/one/mid.txt', 'm');
    fs.seedFile('/ws/one/two/low.txt', 'l');

    expect(summary(await collect(fs, at(''), { maxDepth: 1 }))).toEqual(['1 directory one', '1 file top.txt']);
    expect(summary(await collect(fs, at(''), { maxDepth: 2 }))).toEqual([
      '1 directory one',
      '2 file one/mid.txt',
      '2 directory one/two',
      '1 file top.txt',
    ]);
  });

  it('NFR-009: yields symlinks without following them, to directories, files or outside the root', async () => {
    fs.seedFile('/ws/real/file.txt', 'inside');
    fs.seedSymlink('/ws/dir-link', 'real');
    fs.seedSymlink('/ws/file-link', 'real/file.txt');
    fs.seedSymlink('/ws/escape', '/etc');
    fs.seedFile('/etc/passwd', 'root:x:0:0');
    const { port, listed } = listingRecorder(fs);

    const entries = await collect(port, at(''));
    expect(summary(entries)).toEqual([
      '1 symlink dir-link',
      '1 symlink escape',
      '1 symlink file-link',
      '1 directory real',
      '2 file real/file.txt',
    ]);
    expect(listed).toEqual(['.', 'real']);
  });

  it('does not loop on a link cycle', async () => {
    fs.seedDirectory('/ws/a');
    fs.seedSymlink('/ws/a/back', '..');

    expect(summary(await collect(fs, at('')))).toEqual(['1 directory a', '2 symlink a/back']);
  });

  it('starts through an in-root link to a directory, keeping the link in the paths', async () => {
    fs.seedFile('/ws/real/file.txt', 'x');
    fs.seedSymlink('/ws/alias', 'real');

    const entries = await collect(fs, at('alias'));
    expect(entries.map((e) => displayPath(e.path))).toEqual(['alias/file.txt']);
  });

  it('skips a directory that vanishes between being listed and being entered', async () => {
    fs.seedFile('/ws/doomed/file.txt', 'x');
    fs.seedFile('/ws/kept.txt', 'k');

    const seen: string[] = [];
    for await (const entry of walkTree(fs, at(''))) {
      seen.push(entry.relativePath);
      if (entry.relativePath === 'doomed') await fs.removeDirectory(entry.path);
    }
    expect(seen).toEqual(['doomed', 'kept.txt']);
  });

  it('propagates other failures, such as a start that is not a directory', async () => {
    fs.seedFile('/ws/plain.txt', 'p');
    await expect(collect(fs, at('plain.txt'))).rejects.toMatchObject({ code: 'NOT_A_DIRECTORY' });
  });

  it('lists nothing more once the consumer stops', async () => {
    fs.seedFile('/ws/a/1.txt', '1');
    fs.seedFile('/ws/b/2.txt', '2');
    const { port, listed } = listingRecorder(fs);

    for await (const entry of walkTree(port, at(''))) {
      if (entry.relativePath === 'a') break;
    }
    expect(listed).toEqual(['.']);
  });
});
