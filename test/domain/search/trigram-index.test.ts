import { describe, expect, it } from '@jest/globals';
import { trigramQueryOf } from '../../../src/domain/search/regex-trigrams.js';
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
    const index = new TrigramIndex(200);
    expect(index.add('small.txt', stamp(5), 'hello')).toBe(true);
    expect(index.complete).toBe(true);
    expect(index.add('big.txt', stamp(400), 'x'.repeat(10) + 'abcdefghijklmnopqrstuvwxyz'.repeat(4))).toBe(false);
    expect(index.complete).toBe(false);
    expect(index.paths()).toEqual(['small.txt']);
    expect(index.bytes).toBeLessThanOrEqual(200);
  });
});
