import { describe, expect, it } from '@jest/globals';
import { decodeIndex, encodeIndex } from '../../../src/domain/search/index-codec.js';
import { trigramQueryOf } from '../../../src/domain/search/regex-trigrams.js';
import { TrigramIndex } from '../../../src/domain/search/trigram-index.js';

function sample(): TrigramIndex {
  const index = new TrigramIndex(1 << 20);
  index.add('src/a.ts', { size: 24, modifiedMs: 1_764_300_000_123, inode: 2 ** 40 + 7 }, 'export const hello = 1;\n');
  index.add('docs/é.md', { size: 14, modifiedMs: 0 }, 'TODO: héllo\n');
  index.add('empty', { size: 0, modifiedMs: 5, inode: 0 }, '');
  index.add('image.png', { size: 4, modifiedMs: 5, inode: 9 }, Uint8Array.of(0x89, 0x50, 0x4e, 0x47), true);
  return index;
}

const PATTERNS = ['hello', 'TODO|export', 'héllo', '\\d', 'absent'];

describe('index codec', () => {
  it('reads back the same files, stamps and answers', () => {
    const index = sample();
    const copy = decodeIndex(encodeIndex(index), 1 << 20)!;
    expect(copy.snapshot().files).toEqual(index.snapshot().files);
    for (const pattern of PATTERNS) {
      const query = trigramQueryOf(pattern, { caseInsensitive: false });
      expect(copy.candidates(query).sort()).toEqual(index.candidates(query).sort());
    }
    // A decode seals its lists into blocks, as a build does at its end.
    index.seal();
    expect(copy.bytes).toBe(index.bytes);
  });

  it('refuses every truncation, trailing bytes and a foreign header', () => {
    const bytes = encodeIndex(sample());
    for (let length = 0; length < bytes.length; length += 1) expect(decodeIndex(bytes.subarray(0, length), 1 << 20)).toBeUndefined();
    expect(decodeIndex(Uint8Array.from([...bytes, 0]), 1 << 20)).toBeUndefined();
    expect(decodeIndex(Uint8Array.from([0x58, ...bytes.subarray(1)]), 1 << 20)).toBeUndefined();
  });

  it('refuses any changed byte (its checksum)', () => {
    const index = new TrigramIndex(1 << 20);
    index.add('p', { size: 3, modifiedMs: 1 }, 'abc');
    index.add('q', { size: 3, modifiedMs: 1 }, 'abd');
    const bytes = encodeIndex(index);
    // Layout: magic(4) file-count(1) [path-length(1) path(1) size(1) mtime(1) inode(1) flag(1)] x2,
    // key-count(1), then per key: delta(4, as "abc" = 0x616263 takes 4 varint bytes), count(1), Rice-coded ids; a checksum(4).
    const corrupt = (at: number, value: number) => {
      const copy = Uint8Array.from(bytes);
      copy[at] = value;
      return decodeIndex(copy, 1 << 20);
    };
    expect(corrupt(6, 0xff)).toBeUndefined();
    expect(corrupt(10, 2)).toBeUndefined();
    expect(corrupt(bytes.length - 1, 5)).toBeUndefined();
    // The second key's delta made 0: the same key twice.
    expect(corrupt(24, 0)).toBeUndefined();
    // A file id changed to another valid one still parses: only the checksum tells.
    expect(corrupt(bytes.length - 5, 0x00)).toBeUndefined();
    expect(decodeIndex(bytes, 1 << 20)!.candidates(trigramQueryOf('abc', { caseInsensitive: false }))).toEqual(['p']);
  });

  it('refuses an index that no longer fits the bound', () => {
    expect(decodeIndex(encodeIndex(sample()), 64)).toBeUndefined();
  });

  it('holds a posting in one or two bytes', () => {
    const index = new TrigramIndex(1 << 24);
    const words = Array.from({ length: 400 }, (_, i) => `identifier${i} = call(${i * 7});`);
    let postings = 0;
    for (let file = 0; file < 50; file += 1) {
      const text = words.slice(file * 8, file * 8 + 40).join('\n');
      index.add(`f${file}.ts`, { size: text.length, modifiedMs: file }, text);
    }
    for (const { ids } of index.snapshot().lists) postings += ids.length;
    expect(encodeIndex(index).length).toBeLessThan(postings * 2);
  });
});
