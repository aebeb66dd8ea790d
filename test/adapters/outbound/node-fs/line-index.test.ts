import { execFileSync } from 'node:child_process';
import { appendFileSync, renameSync, utimesSync, writeFileSync } from 'node:fs';
import { mkdtemp, realpath } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { NodeFileSystem } from '../../../../src/adapters/outbound/node-file-system.js';
import type { RootPath } from '../../../../src/domain/roots.js';
import { readLineWindow } from '../../../../src/domain/tools/file-text.js';
import { makeRoot } from '../../../support/roots.js';

const decode = (bytes: Uint8Array) => new TextDecoder().decode(bytes);
const numbered = (from: number, to: number, tag = 'line') =>
  Array.from({ length: to - from + 1 }, (_, i) => `${tag} ${from + i}\n`).join('');

/**
 * The Node adapter answers line windows from an index of line starts it keeps per file
 * version (dev, inode, size, mtime). A window read through it must equal the same window
 * found by scanning the whole file, and any change the file system reports must be seen.
 */
describe('NodeFileSystem: line windows through the line index', () => {
  let base: string;
  let fs: NodeFileSystem;
  let at: (rel: string) => RootPath;

  /** The window via the adapter (seek), and the same window with the seek hidden (full scan). */
  async function bothWays(rel: string, first: number, limit: number | undefined, budget = 1 << 20) {
    const file = await fs.openFile(at(rel));
    try {
      expect(typeof file.seekLine).toBe('function');
      const seeking = await readLineWindow(file, first, limit, budget);
      const scanning = await readLineWindow({ stat: file.stat, read: (p, l) => file.read(p, l), close: async () => {} }, first, limit, budget);
      return { seeking: { ...seeking, text: decode(seeking.bytes) }, scanning: { ...scanning, text: decode(scanning.bytes) } };
    } finally {
      await file.close();
    }
  }

  beforeEach(async () => {
    base = await realpath(await mkdtemp(join(tmpdir(), 'line-index-')));
    const root = makeRoot('workspace', base);
    at = (rel) => ({ root, segments: rel.split('/') });
    fs = new NodeFileSystem();
  });

  afterEach(() => {
    execFileSync('rm', ['-rf', '--', base]);
  });

  it.each([
    [1, 3],
    [511, 3],
    [512, 1],
    [513, 2],
    [1024, 5],
    [4999, 10],
    [5000, 1],
    [5001, 1],
    [9000, 2],
    [2500, undefined],
  ])('lines %p (limit %p) equal a full scan, lines_total included', async (first, limit) => {
    writeFileSync(join(base, 'big.txt'), numbered(1, 5000));
    for (let round = 0; round < 2; round++) {
      const { seeking, scanning } = await bothWays('big.txt', first, limit);
      expect(seeking).toEqual(scanning);
      expect(seeking.linesTotal).toBe(5000);
    }
  });

  it('an unterminated last line and an empty file count as a scan counts them', async () => {
    writeFileSync(join(base, 'tail.txt'), `${numbered(1, 1500)}last`);
    writeFileSync(join(base, 'empty.txt'), '');
    for (const [rel, first] of [['tail.txt', 1501], ['tail.txt', 1499], ['empty.txt', 1]] as const) {
      const { seeking, scanning } = await bothWays(rel, first, 5);
      expect(seeking).toEqual(scanning);
    }
    expect((await bothWays('tail.txt', 1501, 5)).seeking.text).toBe('last');
  });

  it('the byte budget stops a seeking window where it stops a scanning one', async () => {
    writeFileSync(join(base, 'big.txt'), numbered(1, 3000));
    const { seeking, scanning } = await bothWays('big.txt', 2000, 100, 40);
    expect(seeking).toEqual(scanning);
    expect(seeking.budgetExhausted).toBe(true);
  });

  it('a file changed after its index was built is read as it is now', async () => {
    const path = join(base, 'log.txt');
    writeFileSync(path, numbered(1, 2000));
    expect((await bothWays('log.txt', 1990, 5)).seeking.text).toBe(numbered(1990, 1994));

    appendFileSync(path, numbered(2001, 2600));
    const grown = await bothWays('log.txt', 2590, 20);
    expect(grown.seeking).toEqual(grown.scanning);
    expect(grown.seeking.linesTotal).toBe(2600);

    // Same size, same mtime as before, different inode: a replaced file is a new key.
    const replacement = join(base, 'next.txt');
    writeFileSync(replacement, numbered(1, 2600).replaceAll('line', 'LINE'));
    const before = new Date('2024-01-01T00:00:00Z');
    utimesSync(path, before, before);
    utimesSync(replacement, before, before);
    renameSync(replacement, path);
    expect((await bothWays('log.txt', 2590, 1)).seeking.text).toBe('LINE 2590\n');

    // Same inode and size, rewritten in place with one line fewer: the new mtime makes it a new key.
    writeFileSync(path, numbered(1, 2600).replaceAll('line', 'LINE').replace('LINE 1\nLINE 2\n', 'LINE 1 LINE 2\n'));
    const rewritten = await bothWays('log.txt', 2590, 1);
    expect(rewritten.seeking).toEqual(rewritten.scanning);
    expect(rewritten.seeking.linesTotal).toBe(2599);
    expect(rewritten.seeking.text).toBe('LINE 2591\n');
  });
});
