import { describe, expect, it } from '@jest/globals';
import { trigramQueryOf } from '../../../src/domain/search/regex-trigrams.js';
import { PostingLists } from '../../../src/domain/search/posting-lists.js';
import { TrigramIndex } from '../../../src/domain/search/trigram-index.js';

const stamp = (size: number, modifiedMs = 1, inode = 1) => ({ size, modifiedMs, inode });
const query = (pattern: string, caseInsensitive = false) => trigramQueryOf(pattern, { caseInsensitive });

function indexOf(files: Record<string, string>, maxBytes = 1 << 20): TrigramIndex {
  const index = new TrigramIndex(maxBytes);
  for (const [path, text] of Object.entries(files)) expect(index.add(path, stamp(text.length), text)).toBe(true);
  return index;
}

describe('TrigramIndex', () => {
  const files = { 'a.ts': 'export const hello = 1;\n', 'b.ts': 'TODO: say Hello\n', 'c.md': 'nothing here\n' };

  it('answers a literal from its posting lists, case folded', () => {
    const index = indexOf(files);
    expect(index.candidates(query('hello')).sort()).toEqual(['a.ts', 'b.ts']);
    expect(index.candidates(query('export')).sort()).toEqual(['a.ts']);
    expect(index.candidates(query('absent'))).toEqual([]);
  });

  it('answers alternations and conjunctions', () => {
    const index = indexOf(files);
    expect(index.candidates(query('TODO|nothing')).sort()).toEqual(['b.ts', 'c.md']);
    expect(index.candidates(query('say.*Hello')).sort()).toEqual(['b.ts']);
  });

  it('returns every file for a pattern with no required trigram', () => {
    const index = indexOf(files);
    expect(index.candidates(query('\\d')).sort()).toEqual(['a.ts', 'b.ts', 'c.md']);
  });

  it('forgets a removed file and the postings only it held', () => {
    const index = indexOf(files);
    const before = index.bytes;
    index.remove('a.ts');
    expect(index.candidates(query('export'))).toEqual([]);
    expect(index.candidates(query('hello'))).toEqual(['b.ts']);
    expect(index.bytes).toBeLessThan(before);
    expect(index.paths().sort()).toEqual(['b.ts', 'c.md']);
  });

  it('re-adding a path replaces what it held', () => {
    const index = indexOf(files);
    index.add('a.ts', stamp(9, 2), 'goodbye\n');
    expect(index.candidates(query('hello'))).toEqual(['b.ts']);
    expect(index.candidates(query('goodbye'))).toEqual(['a.ts']);
    expect(index.stampOf('a.ts')).toEqual(stamp(9, 2));
  });

  it('refuses a file past max bytes and says it is incomplete', () => {
    const index = new TrigramIndex(400);
    expect(index.add('small.txt', stamp(5), 'hello')).toBe(true);
    expect(index.complete).toBe(true);
    expect(index.add('big.txt', stamp(400), 'x'.repeat(10) + 'abcdefghijklmnopqrstuvwxyz'.repeat(4))).toBe(false);
    expect(index.complete).toBe(false);
    expect(index.paths()).toEqual(['small.txt']);
    expect(index.bytes).toBeLessThanOrEqual(400);
  });

  it('never offers a binary file, and keys non-ASCII text by its UTF-8 bytes', () => {
    const index = indexOf({ 'é.txt': 'café crème\n' });
    index.add('blob.bin', stamp(12), 'café crème\n', true);
    expect(index.candidates(query('crème'))).toEqual(['é.txt']);
    expect(index.candidates(query('fé c'))).toEqual(['é.txt']);
    expect(index.candidates(query('crèmes'))).toEqual([]);
    // U+FFFD in a pattern may stand for any invalid bytes: it requires nothing.
    expect(index.candidates(query('\uFFFD\uFFFD\uFFFD')).sort()).toEqual(['blob.bin', 'é.txt']);
  });

  it('keeps answers through many re-indexings and the compactions they cause', () => {
    const index = new TrigramIndex(1 << 24);
    for (let round = 0; round < 40; round += 1) {
      for (let file = 0; file < 50; file += 1) index.add(`f${file}`, stamp(round), `round${round} file${file} ${'filler'.repeat(file)}\n`);
    }
    expect(index.size).toBe(50);
    expect(index.candidates(query('round39 file7 ')).sort()).toEqual(['f7']);
    expect(index.candidates(query('round38'))).toEqual([]);
    expect(index.candidates(query('filler')).length).toBe(49);
    const lists = [...index.snapshot().lists];
    expect(lists.every(({ ids }) => ids.every((id) => id < 50))).toBe(true);
  });
});

describe('PostingLists', () => {
  it('reads back long lists across slices and large gaps', () => {
    const lists = new PostingLists();
    const expected = new Map<number, number[]>();
    for (let id = 0; id < 5000; id += 1) {
      for (const key of [1, 0xffffff, id % 7 === 0 ? 42 : -1]) {
        if (key < 0) continue;
        lists.add(key, id * 1000);
        expected.set(key, [...(expected.get(key) ?? []), id * 1000]);
      }
    }
    for (const [key, ids] of expected) expect([...lists.ids(key)]).toEqual(ids);
    expect([...lists.ids(7)]).toEqual([]);
    expect(lists.keyCount).toBe(3);
  });
});
