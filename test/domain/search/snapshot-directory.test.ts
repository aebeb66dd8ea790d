import { describe, expect, it } from '@jest/globals';
import { SnapshotDirectory } from '../../../src/domain/search/snapshot-directory.js';

const entries = (directory: SnapshotDirectory) => Array.from({ length: directory.size }, (_entry, index) => [directory.name(index), directory.row(index)]);

describe('SnapshotDirectory', () => {
  it('gives each entry its row whether the rows run on (a walk) or not (changes applied), through inserts and removals', () => {
    const directory = new SnapshotDirectory();
    ['b', 'a', 'c'].forEach((name, n) => directory.add(name, 10 + n));
    directory.seal();
    // Sorted by name, the rows no longer run on: a → 11, b → 10, c → 12.
    expect(entries(directory)).toEqual([['a', 11], ['b', 10], ['c', 12]]);
    const walked = new SnapshotDirectory();
    ['a', 'b', 'c'].forEach((name, n) => walked.add(name, 20 + n));
    walked.seal();
    expect(entries(walked)).toEqual([['a', 20], ['b', 21], ['c', 22]]);
    walked.insert(walked.insertionPoint('bb'), 'bb', 99);
    expect(entries(walked)).toEqual([['a', 20], ['b', 21], ['bb', 99], ['c', 22]]);
    walked.remove(walked.find('bb'));
    expect(entries(walked)).toEqual([['a', 20], ['b', 21], ['c', 22]]);
    walked.remove(walked.find('a'));
    expect(entries(walked)).toEqual([['b', 21], ['c', 22]]);
    expect(walked.find('c')).toBe(1);
    expect(walked.find('a')).toBe(-1);
  });

  it('finds every name in a directory whose names pass 64 Ki characters (wider offsets)', () => {
    const directory = new SnapshotDirectory();
    const names = Array.from({ length: 3000 }, (_entry, n) => `name-${String(n).padStart(5, '0')}-${'x'.repeat(20)}`);
    names.forEach((name, n) => directory.add(name, n));
    directory.seal();
    expect(names.join('/').length).toBeGreaterThan(0xffff);
    for (const [n, name] of names.entries()) {
      expect(directory.find(name)).toBe(n);
      expect(directory.row(n)).toBe(n);
      expect(directory.name(n)).toBe(name);
    }
    expect(directory.nameEndsWith(2999, 'xxx')).toBe(true);
  });
});
