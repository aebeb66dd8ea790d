import { describe, expect, it } from '@jest/globals';
import { IndexedLookup } from '../../../src/domain/search/index-freshness.js';
import { trigramQueryOf } from '../../../src/domain/search/regex-trigrams.js';
import { TrigramIndex } from '../../../src/domain/search/trigram-index.js';

const stat = (size: number, modifiedMs = 1, inode = 1) => ({ size, modifiedAt: new Date(modifiedMs), inode });
const stamp = (size: number, modifiedMs = 1, inode = 1) => ({ size, modifiedMs, inode });

function lookup(pattern = 'needle') {
  const index = new TrigramIndex(4096);
  index.add('hit.ts', stamp(16), 'const needle = 1');
  index.add('miss.ts', stamp(15, 1, 2), 'const other = 2');
  index.add('blob.bin', stamp(4, 1, 3), 'need', true);
  return new IndexedLookup(index, trigramQueryOf(pattern, { caseInsensitive: false }));
}

describe('IndexedLookup', () => {
  it('reads a candidate, passes over a file the index vouches for, and a binary one uncounted', () => {
    const files = lookup();
    expect(files.verdict('hit.ts', stat(16))).toBe('search');
    expect(files.verdict('miss.ts', stat(15, 1, 2))).toBe('no-match');
    expect(files.verdict('blob.bin', stat(4, 1, 3))).toBe('binary');
  });

  it('reads a file it does not know: created since the index was written', () => {
    expect(lookup().verdict('new.ts', stat(3))).toBe('search');
  });

  it('reads a file whose size, mtime or inode moved (rewritten, touched, renamed over, a link swapped in)', () => {
    const files = lookup();
    expect(files.verdict('miss.ts', stat(16, 1, 2))).toBe('search');
    expect(files.verdict('miss.ts', stat(15, 2, 2))).toBe('search');
    expect(files.verdict('miss.ts', stat(15, 1, 9))).toBe('search');
    expect(files.verdict('blob.bin', stat(4, 1, 4))).toBe('search');
  });

  it('reads every vouched-for text file when the pattern requires no trigram', () => {
    const files = lookup('\\d');
    expect(files.verdict('miss.ts', stat(15, 1, 2))).toBe('search');
    expect(files.verdict('blob.bin', stat(4, 1, 3))).toBe('binary');
  });
});
