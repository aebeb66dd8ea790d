import { describe, expect, it } from '@jest/globals';
import type { EntryStat } from '../../../src/domain/ports/file-system.port.js';
import { IGNORE_KEPT, IGNORE_PRUNED, IGNORE_UNKNOWN, INDEX_UNKNOWN, SnapshotRows } from '../../../src/domain/search/snapshot-rows.js';

const statOf = (row: number): EntryStat => ({
  name: `f${row}`,
  kind: row % 7 === 0 ? 'directory' : 'file',
  size: row * 3,
  modifiedAt: new Date(1_700_000_000_000 + row),
  permissions: 0o644 + (row % 3),
  uid: 1000 + (row % 2),
  gid: 1000,
  inode: 2 ** 40 + row,
  ...(row % 5 === 0 ? {} : { createdAt: new Date(1_600_000_000_000 + row) }),
});

/** What a row gives back of a stat: all of it but the birth time (not kept). */
const keptOf = ({ createdAt: _birth, ...kept }: EntryStat): EntryStat => kept;

describe('SnapshotRows', () => {
  it('gives back every stat it was given, across blocks and after a trim; a row without a stat has its kind only', () => {
    const rows = new SnapshotRows();
    const count = 40_000;
    for (let row = 0; row < count; row += 1) expect(rows.add(row % 11 === 0 ? 'symlink' : statOf(row).kind, row % 11 === 0 ? undefined : statOf(row))).toBe(row);
    rows.trim();
    expect(rows.add('file', statOf(count))).toBe(count);
    for (const row of [0, 1, 5, 16_383, 16_384, 16_385, 32_768, 39_999, count]) {
      if (row % 11 === 0 && row !== count) {
        expect([rows.kind(row), rows.hasStat(row)]).toEqual(['symlink', false]);
        continue;
      }
      expect(rows.stat(row, `f${row}`)).toStrictEqual(keptOf(statOf(row)));
      expect(rows.isFile(row)).toBe(statOf(row).kind === 'file');
    }
  });

  it('gives the right times whatever order the instants come in (stats made together may share their Dates)', () => {
    const rows = new SnapshotRows();
    const instants = [5, 5, 6, 5, 7, 8, 9, 10, 5, 11, 6, 6];
    const stats = instants.map((instant, row): EntryStat => ({ ...keptOf(statOf(row)), modifiedAt: new Date(instant) }));
    stats.forEach((stat) => rows.add(stat.kind, stat));
    for (const order of [stats.keys(), [...stats.keys()].reverse()]) {
      for (const row of order) {
        expect(rows.stat(row, `f${row}`)).toStrictEqual(stats[row]);
        expect(rows.isDirectory(row)).toBe(stats[row]!.kind === 'directory');
      }
    }
  });

  it('a restamped row loses its verdicts; verdicts kept under another index or other rules are dropped whole', () => {
    const rows = new SnapshotRows();
    for (let row = 0; row < 3; row += 1) rows.add('file', statOf(row));
    const index = {};
    rows.indexVerdicts(index, 1).set([7, 8, 9]);
    rows.ignoreVerdicts(['', index]).set([1, 2, 1]);
    rows.set(1, 'file', statOf(4));
    expect([...rows.indexVerdicts(index, 1).subarray(0, 3)]).toEqual([7, INDEX_UNKNOWN, 9]);
    expect([...rows.ignoreVerdicts(['', index]).subarray(0, 3)]).toEqual([1, 0, 1]);
    expect([...rows.indexVerdicts(index, 2).subarray(0, 3)]).toEqual([INDEX_UNKNOWN, INDEX_UNKNOWN, INDEX_UNKNOWN]);
    expect([...rows.ignoreVerdicts(['src', index]).subarray(0, 3)]).toEqual([0, 0, 0]);
  });

  it('tells apart more than 256 owners (a byte a row until then), in a block that grows and in one that is full', () => {
    const rows = new SnapshotRows();
    const count = 20_000;
    // The first 16,384 rows share a few owners, then each row has its own uid: the first block is full, the second grows.
    const ownedOf = (row: number): EntryStat => ({ ...keptOf(statOf(row)), uid: row < 16_384 ? row % 3 : row });
    for (let row = 0; row < count; row += 1) rows.add(ownedOf(row).kind, ownedOf(row));
    // A row of the full block restamped with an owner past the 256th.
    rows.set(5, ownedOf(5).kind, { ...ownedOf(5), uid: 19_999 });
    const wrong: number[] = [];
    for (let row = 0; row < count; row += 1) {
      const want = row === 5 ? { ...ownedOf(5), uid: 19_999 } : ownedOf(row);
      if (JSON.stringify(rows.stat(row, want.name)) !== JSON.stringify(want)) wrong.push(row);
    }
    expect(wrong).toEqual([]);
  });

  it('keeps ignore verdicts for each of the last four rule keys asked for, each apart; a restamp or a new row reaches them all', () => {
    const rows = new SnapshotRows();
    for (let row = 0; row < 3; row += 1) rows.add('file', statOf(row));
    const grep = ['text', 'rules'];
    const glob = ['tree', 'rules'];
    rows.ignoreVerdicts(grep).set([IGNORE_KEPT, IGNORE_PRUNED, IGNORE_KEPT]);
    rows.ignoreVerdicts(glob).set([IGNORE_PRUNED, IGNORE_PRUNED, IGNORE_PRUNED]);
    // A key equal item by item is the same key.
    expect([...rows.ignoreVerdicts(['text', 'rules']).subarray(0, 3)]).toEqual([IGNORE_KEPT, IGNORE_PRUNED, IGNORE_KEPT]);
    expect([...rows.ignoreVerdicts(glob).subarray(0, 3)]).toEqual([IGNORE_PRUNED, IGNORE_PRUNED, IGNORE_PRUNED]);
    rows.set(1, 'file', statOf(1));
    const added = rows.add('file', statOf(5_000))!;
    for (let row = 3; row < 5_000; row += 1) rows.add('file', statOf(row));
    expect([...rows.ignoreVerdicts(grep).subarray(0, 3)]).toEqual([IGNORE_KEPT, IGNORE_UNKNOWN, IGNORE_KEPT]);
    expect(rows.ignoreVerdicts(grep)[added]).toBe(IGNORE_UNKNOWN);
    rows.ignoreVerdicts(grep)[4_999] = IGNORE_KEPT;
    expect([...rows.ignoreVerdicts(glob).subarray(0, 3)]).toEqual([IGNORE_PRUNED, IGNORE_UNKNOWN, IGNORE_PRUNED]);
    expect(rows.ignoreVerdicts(glob)[4_999]).toBe(IGNORE_UNKNOWN);
    // Three more keys: glob's was asked for last of the two, so grep's is the one let go.
    for (const other of [['a'], ['b'], ['c']]) rows.ignoreVerdicts(other)[0] = IGNORE_KEPT;
    expect(rows.ignoreVerdicts(glob)[0]).toBe(IGNORE_PRUNED);
    expect(rows.ignoreVerdicts(grep)[0]).toBe(IGNORE_UNKNOWN);
  });
});
