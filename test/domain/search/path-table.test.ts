import { describe, expect, it } from '@jest/globals';
import { nameStart, PathTable } from '../../../src/domain/search/path-table.js';

describe('PathTable', () => {
  it('gives ids in order and finds each path back, root files, nested folders and non-ASCII names alike', () => {
    const table = new PathTable();
    const paths = ['top.txt', 'src/a.ts', 'src/deep/b.ts', 'docs/é.md', 'docs/日本.txt', 'src/a.tsx', 'a/b/c/d/e/f.txt'];
    expect(paths.map((path) => table.add(path))).toEqual([0, 1, 2, 3, 4, 5, 6]);
    paths.forEach((path, id) => {
      expect(table.idOf(path)).toBe(id);
      expect(table.pathOf(id)).toBe(path);
    });
    for (const absent of ['src', 'src/a', 'src/a.t', 'docs/e.md', 'top.txt/x', 'nowhere/top.txt', 'deep/b.ts']) expect(table.idOf(absent)).toBeUndefined();
    expect(table.size).toBe(paths.length);
  });

  it('keeps every path of a million-file shape through many rehashes and colliding probes', () => {
    const table = new PathTable();
    const pathOf = (n: number) => `d${Math.floor(n / 100)}/f${n % 100}.txt`;
    for (let n = 0; n < 20_000; n += 1) expect(table.add(pathOf(n))).toBe(n);
    for (let n = 0; n < 20_000; n += 1) expect(table.idOf(pathOf(n))).toBe(n);
    // Asked out of walk order too (the last folder asked is kept aside).
    for (let n = 19_999; n >= 0; n -= 7) expect(table.idOf(pathOf(n))).toBe(n);
    expect(table.idOf('d0/f100.txt')).toBeUndefined();
  });

  it('keeps names that would cross a page of its name pool whole, on the next page (70,000 ids past a block, over 2 MiB of names)', () => {
    const table = new PathTable();
    // Names of 3 to 60 bytes, one of them non-ASCII: no page's end falls between names by chance alone.
    const pathOf = (n: number) => `d${n % 97}/${'x'.repeat(n % 58)}é${n}`;
    for (let n = 0; n < 70_000; n += 1) table.add(pathOf(n));
    const wrong: number[] = [];
    for (let n = 0; n < 70_000; n += 1) if (table.pathOf(n) !== pathOf(n) || table.idOf(pathOf(n)) !== n) wrong.push(n);
    expect(wrong).toEqual([]);
    table.remove(65_536);
    expect([table.idOf(pathOf(65_536)), table.pathOf(65_536), table.idOf(pathOf(65_537))]).toEqual([undefined, undefined, 65_537]);
  });

  it('tells where a name starts from where the pool ended before it and where it ends', () => {
    const page = 1 << 20;
    expect(nameStart(100, 110)).toBe(100);
    expect(nameStart(page - 10, page)).toBe(page - 10);
    expect(nameStart(page - 10, page + 20)).toBe(page);
    expect(nameStart(page, page + 5)).toBe(page);
    expect(nameStart(7, 7)).toBe(7);
  });

  it('forgets a removed path, and a path added again takes a new id', () => {
    const table = new PathTable();
    for (let n = 0; n < 100; n += 1) table.add(`dir/${n}`);
    for (let n = 0; n < 100; n += 2) table.remove(table.idOf(`dir/${n}`)!);
    expect(table.size).toBe(50);
    expect(table.idOf('dir/4')).toBeUndefined();
    expect(table.pathOf(4)).toBeUndefined();
    expect(table.idOf('dir/5')).toBe(5);
    expect(table.add('dir/4')).toBe(100);
    expect(table.idOf('dir/4')).toBe(100);
    expect(table.pathOf(100)).toBe('dir/4');
    // Tombstones do not end a probe: every live path is still found after many removals and re-adds.
    for (let round = 0; round < 5; round += 1) {
      for (let n = 1; n < 100; n += 2) {
        table.remove(table.idOf(`dir/${n}`)!);
        table.add(`dir/${n}`);
      }
    }
    for (let n = 0; n < 100; n += 1) {
      const id = table.idOf(`dir/${n}`);
      if (n % 2 === 0 && n !== 4) expect(id).toBeUndefined();
      else expect(table.pathOf(id!)).toBe(`dir/${n}`);
    }
    expect(table.size).toBe(51);
  });

  it('costOfAdd bounds what an add grows bytes by, a rehash included', () => {
    const table = new PathTable();
    for (let n = 0; n < 5000; n += 1) {
      const path = `folder${n % 13}/name-${n}.ts`;
      const bound = table.costOfAdd(path);
      const before = table.bytes;
      table.add(path);
      expect(table.bytes - before).toBeLessThanOrEqual(bound);
    }
  });

  it('keeps its hash table within 1.6 slots a path, filled to four in five (a power of two at half full took up to four)', () => {
    const table = new PathTable();
    const pathOf = (n: number) => `d${Math.floor(n / 100)}/f${n % 100}.txt`;
    const count = 140_000;
    let names = 0;
    for (let n = 0; n < count; n += 1) {
      table.add(pathOf(n));
      names += `f${n % 100}.txt`.length;
    }
    const slots = (table.bytes - names - count * 8) / 4;
    expect(slots).toBeGreaterThanOrEqual(count / 0.8);
    expect(slots).toBeLessThanOrEqual(count * 1.6 + 16);
    for (let n = 0; n < count; n += 997) expect(table.idOf(pathOf(n))).toBe(n);
  });
});
