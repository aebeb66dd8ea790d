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
  // A folder not in ASCII and a path past the encode's first path buffer (1 KiB), then a short one after it.
  index.add(`ünï/${'ß'.repeat(700)}/${'x'.repeat(900)}.txt`, { size: 3, modifiedMs: 6, inode: 10 }, 'ok\n');
  index.add('ünï/z', { size: 3, modifiedMs: 7, inode: 11 }, 'ok\n');
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
    // Layout: magic(4) file-count(1) [front(1) end(1) middle-length(1) middle(1) size-and-flag(1) mtime-delta(1) inode-delta(1)] x2,
    // key-count(1), then per key: delta(4, as "abc" = 0x616263 takes 4 varint bytes), count(1), Rice-coded ids; a checksum(4).
    const corrupt = (at: number, value: number) => {
      const copy = Uint8Array.from(bytes);
      copy[at] = value;
      return decodeIndex(copy, 1 << 20);
    };
    expect(corrupt(6, 0xff)).toBeUndefined();
    expect(corrupt(10, 7)).toBeUndefined();
    expect(corrupt(bytes.length - 1, 5)).toBeUndefined();
    // The second key's delta made 0: the same key twice.
    expect(corrupt(26, 0)).toBeUndefined();
    // A file id changed to another valid one still parses: only the checksum tells.
    expect(corrupt(bytes.length - 5, 0x00)).toBeUndefined();
    expect(decodeIndex(bytes, 1 << 20)!.candidates(trigramQueryOf('abc', { caseInsensitive: false }))).toEqual(['p']);
  });

  it('refuses an index of the previous format (TGI3: whole paths and stamps) whole, so it is rebuilt', () => {
    // encodeIndex of 'src/a.ts' and 'docs/é.md' (as in sample()) by the codec before format 4.
    const tgi3 = Buffer.from(
      'VEdJMwIIc3JjL2EudHMY+5bmw6wziICAgIAgAApkb2NzL8OpLm1kDgAAACC74oABAQDlFwEAz0wBAPYJAQBeAUDHpEMBAN7KIwFAyf8LAQC9npkBAQDM/wMBQLL6AwEAhBgBAPzZCwEAvbwBAUDG0Q4CAJsFAUAWAQDUiAgBAMnZAgEA4zMBQM9UAUCEFAEAgQgBAP75AwEArokIAQCAgAQBAMPYAgEABQEA/J0BAUCLghABAP33wwEBQID6aAFAEVVP8w==',
      'base64',
    );
    expect(decodeIndex(new Uint8Array(tgi3), 1 << 20)).toBeUndefined();
  });

  it('front-codes paths and delta-codes stamps: a folder of small files takes a few bytes a file, and reads back exact', () => {
    const index = new TrigramIndex(1 << 24);
    const stampOf = (n: number) => ({ size: 250 + (n % 20), modifiedMs: 1_764_300_000_000 + n * 3 - (n % 7), inode: 5_000_000 + n });
    for (let n = 0; n < 2000; n += 1) index.addKeys(`src/folder${Math.floor(n / 100)}/file${n % 100}.txt`, { stamp: stampOf(n), binary: n % 9 === 0 }, []);
    // A path that is a prefix of the one before it, and one that shares nothing.
    index.addKeys('src/folder19/file9', { stamp: { size: 1, modifiedMs: 0 }, binary: false }, []);
    index.addKeys('z', { stamp: { size: 2, modifiedMs: -5, inode: 0 }, binary: true }, []);
    const bytes = encodeIndex(index);
    expect(bytes.length).toBeLessThan(2002 * 9);
    const copy = decodeIndex(bytes, 1 << 24)!;
    expect([...copy.snapshot().files]).toEqual([...index.snapshot().files]);
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
