import { describe, expect, it } from '@jest/globals';
import { FileRecords } from '../../../src/domain/search/file-records.js';

const fileOf = (id: number) => ({
  stamp: id % 5 === 0 ? { size: id * 7, modifiedMs: 1_700_000_000_000.5 + id } : { size: id * 7, modifiedMs: 1_700_000_000_000.5 + id, inode: 2 ** 40 + id },
  binary: id % 3 === 0,
});

describe('FileRecords', () => {
  it('keeps every file across the blocks it grows into (past two full blocks)', () => {
    const records = new FileRecords();
    const count = 140_000;
    for (let id = 0; id < count; id += 1) records.push(fileOf(id), id % 1000);
    expect(records.length).toBe(count);
    const wrong: number[] = [];
    for (let id = 0; id < count; id += 1) {
      const { stamp, binary } = records.get(id);
      const want = fileOf(id);
      const same = stamp.size === want.stamp.size && stamp.modifiedMs === want.stamp.modifiedMs && stamp.inode === want.stamp.inode && binary === want.binary;
      if (!same || records.textBytesOf(id) !== (binary ? 0 : id * 7) || records.postingsOf(id) !== id % 1000) wrong.push(id);
    }
    expect(wrong).toEqual([]);
    expect([0, 1023, 1024, 65_536, 139_999].map((id) => records.get(id))).toEqual([0, 1023, 1024, 65_536, 139_999].map(fileOf));
  });

  it('counts postings per file, on either side of a block boundary', () => {
    const records = new FileRecords();
    for (let id = 0; id < 65_540; id += 1) records.push(fileOf(id), 1);
    for (const id of [0, 1023, 1024, 65_535, 65_536, 65_539]) records.countPosting(id);
    records.countPosting(65_536);
    expect([0, 1, 1023, 1024, 65_535, 65_536, 65_539].map((id) => records.postingsOf(id))).toEqual([2, 1, 2, 2, 2, 3, 2]);
  });

  it('keeps a count past its 16-bit slot, pushed or counted up to it, and binary flags beside their neighbours', () => {
    const records = new FileRecords();
    const counts = [70_000, 65_534, 65_535, 0, 2 ** 31];
    counts.forEach((count, id) => records.push({ stamp: { size: 1, modifiedMs: 0 }, binary: id % 2 === 1 }, count));
    records.countPosting(1);
    records.countPosting(1);
    records.countPosting(2);
    expect(counts.map((_count, id) => records.postingsOf(id))).toEqual([70_000, 65_536, 65_536, 0, 2 ** 31]);
    expect(counts.map((_count, id) => records.get(id).binary)).toEqual([false, true, false, true, false]);
  });
});
