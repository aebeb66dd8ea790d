import { describe, expect, it } from '@jest/globals';
import { FileRecords } from '../../../src/domain/search/file-records.js';
import { NarrowNumbers, NarrowTimes } from '../../../src/domain/search/narrow-numbers.js';
import { SnapshotRows } from '../../../src/domain/search/snapshot-rows.js';

const WIDE = [2 ** 32 - 1, 2 ** 32, 2 ** 40 + 3, Number.MAX_SAFE_INTEGER, 0.5, Number.NaN];
const NARROW = [0, 1, 4096, 2 ** 32 - 2];

describe('NarrowNumbers', () => {
  it('keeps a small integer in its slot and any other number beside it, and a slot narrowed again forgets the wide one', () => {
    const numbers = new NarrowNumbers();
    const slots = new Uint32Array(WIDE.length + NARROW.length);
    [...WIDE, ...NARROW].forEach((value, at) => numbers.put(slots, at, 100 + at, value));
    expect([...WIDE, ...NARROW].map((_value, at) => numbers.get(slots, at, 100 + at))).toEqual([...WIDE, ...NARROW]);
    expect([...slots.subarray(WIDE.length)]).toEqual(NARROW);
    numbers.put(slots, 1, 101, 7);
    expect(numbers.get(slots, 1, 101)).toBe(7);
    numbers.put(slots, 1, 101, 2 ** 33);
    expect(numbers.get(slots, 1, 101)).toBe(2 ** 33);
  });

  it('keeps numbers in 16-bit slots the same way, 65,535 and more beside them', () => {
    const numbers = new NarrowNumbers<Uint16Array>(16);
    const values = [0, 65_534, 65_535, 65_536, 2 ** 32, 0.5];
    const slots = new Uint16Array(values.length);
    values.forEach((value, at) => numbers.put(slots, at, at, value));
    expect(values.map((_value, at) => numbers.get(slots, at, at))).toEqual(values);
    expect([...slots]).toEqual([0, 65_534, 65_535, 65_535, 65_535, 65_535]);
  });

  it('keeps a time as seconds and milliseconds, and one before 1970, past 2106 or with a fraction beside them', () => {
    const times = new NarrowTimes();
    const values = [0, 999, 1000, 1_764_300_000_123, (2 ** 32 - 2) * 1000 + 999, -1, -1_000_000, (2 ** 32 - 1) * 1000, 2 ** 45, 1_764_300_000_123.5, Number.NaN];
    const seconds = new Uint32Array(values.length);
    const millis = new Uint16Array(values.length);
    values.forEach((value, at) => times.put(seconds, millis, at, at, value));
    expect(values.map((_value, at) => times.get(seconds, millis, at, at))).toEqual(values);
    times.put(seconds, millis, 5, 5, 42);
    expect(times.get(seconds, millis, 5, 5)).toBe(42);
  });

  it('gives back sizes of 4 GiB and more, 64-bit inodes, an unknown inode and times before 1970, in the index records and the snapshot rows', () => {
    const records = new FileRecords();
    const rows = new SnapshotRows();
    const stamps = [...WIDE.slice(0, 4), ...NARROW].map((value, n) => ({ size: value, modifiedMs: n % 3 === 0 ? -(n + 1) * 1000.5 : 1_700_000_000_000 + n, inode: WIDE[(n + 1) % WIDE.length]! }));
    stamps.forEach((stamp, n) => {
      const inode = Number.isNaN(stamp.inode) ? undefined : stamp.inode;
      records.push({ stamp: inode === undefined ? { size: stamp.size, modifiedMs: stamp.modifiedMs } : { ...stamp, inode }, binary: false }, n);
      rows.add('file', { name: `f${n}`, kind: 'file', size: stamp.size, modifiedAt: new Date(stamp.modifiedMs), permissions: 0o644, uid: 1, gid: 1, inode: stamp.inode });
    });
    stamps.forEach((stamp, n) => {
      const record = records.get(n).stamp;
      expect([record.size, record.modifiedMs, record.inode ?? Number.NaN]).toEqual([stamp.size, stamp.modifiedMs, stamp.inode]);
      expect(records.textBytesOf(n)).toBe(stamp.size);
      expect([rows.size(n), rows.modifiedMs(n), rows.inode(n)]).toEqual([stamp.size, new Date(stamp.modifiedMs).getTime(), stamp.inode]);
    });
    // Restamped narrow, the row forgets its wide size.
    rows.set(2, 'file', { name: 'f2', kind: 'file', size: 12, modifiedAt: new Date(5), permissions: 0o644, uid: 1, gid: 1, inode: 9 });
    expect([rows.size(2), rows.inode(2)]).toEqual([12, 9]);
  });
});
