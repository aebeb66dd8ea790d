import { describe, expect, it } from '@jest/globals';
import { PostingLists } from '../../../src/domain/search/posting-lists.js';
import { BitWriter, decodeRice, riceGapBytes, riceParameter } from '../../../src/domain/search/rice-blocks.js';

/** A generator of ascending ids with gaps of every size: dense runs, sparse stretches, huge jumps. */
function idsOf(seed: number, count: number): number[] {
  let state = seed;
  const next = () => (state = (Math.imul(state, 1103515245) + 12345) >>> 0);
  const ids: number[] = [];
  let id = -1;
  for (let n = 0; n < count; n += 1) {
    const kind = next() % 10;
    id += kind < 6 ? 1 : kind < 9 ? 1 + (next() % 300) : 1 + (next() % 100_000);
    ids.push(id);
  }
  return ids;
}

describe('Rice blocks', () => {
  it('count the bytes riceGaps writes without writing them, for every k and gap size', () => {
    for (const k of [0, 1, 3, 7, 15, 16, 22, 30]) {
      for (const seed of [1, 2, 3]) {
        const ids = idsOf(seed, 300 + seed * 17);
        const writer = new BitWriter();
        writer.riceGaps(ids, 5, ids.length, ids[4]!, k);
        expect(riceGapBytes(ids, 5, ids.length, ids[4]!, k)).toBe(writer.bytes.length);
      }
    }
    expect(riceGapBytes([], 0, 0, -1, 3)).toBe(0);
  });

  it('round-trip gaps of every size, parameters 0 to 30 included', () => {
    const writer = new BitWriter();
    for (const k of [0, 1, 7, 15, 16, 22, 30]) {
      const ids = idsOf(k + 1, 3000);
      writer.reset();
      writer.riceGaps(ids, 0, ids.length, -1, k);
      const out = new Int32Array(ids.length);
      const end = decodeRice(writer.bytes, 0, ids.length, k, -1, out, 0);
      expect(end).toBe(writer.bytes.length);
      expect([...out]).toEqual(ids);
    }
    expect(riceParameter(10, 10)).toBe(0);
    expect(riceParameter(10, 10_000)).toBe(9);
  });
});

describe('PostingLists', () => {
  it('reads a list back across sealed blocks, block boundaries and the tail, whatever the seal size', () => {
    for (const sealBytes of [64, 4096, 8 << 20]) {
      const lists = new PostingLists(sealBytes);
      const expected = new Map<number, number[]>();
      for (const [key, seed, count] of [[5, 1, 10_000], [0xffffff, 2, 9000], [77, 3, 3], [0, 4, 1]] as const) expected.set(key, idsOf(seed, count));
      // Interleaved by id, as a build adds them: each key's ids ascending.
      const merged = [...expected].flatMap(([key, ids]) => ids.map((id) => ({ key, id }))).sort((a, b) => a.id - b.id);
      merged.forEach(({ key, id }, n) => {
        lists.add(key, id);
        // Every list reads back whole at any point, sealed part and tail together.
        if (n % 997 === 0) expect([...lists.ids(key)]).toEqual(expected.get(key)!.filter((other) => other <= id));
      });
      for (const [key, ids] of expected) expect([...lists.ids(key)]).toEqual(ids);
      lists.seal();
      for (const [key, ids] of expected) expect([...lists.ids(key)]).toEqual(ids);
      expect([...lists.entries()].map(({ key }) => key)).toEqual([0, 5, 77, 0xffffff]);
      expect(lists.postings).toBe(10_000 + 9000 + 3 + 1);
    }
  });

  it('streams its entries through one buffer, each list right while it is the current one (no array per key)', () => {
    const lists = new PostingLists(4096);
    const expected = new Map<number, number[]>([[1, idsOf(5, 3000)], [2, idsOf(6, 10)], [3, idsOf(7, 5000)], [4, idsOf(8, 200)]]);
    for (const [key, ids] of expected) lists.addAll(key, ids);
    const buffers = new Set<ArrayBufferLike>();
    for (const { key, ids } of lists.entries()) {
      expect([...ids]).toEqual(expected.get(key));
      buffers.add(ids.buffer);
    }
    // One buffer, grown once for the 3,000 ids and once more for the 5,000.
    expect(buffers.size).toBeLessThanOrEqual(2);
  });

  it('appends after a seal and seals a long run at once (a decode), both read back in order', () => {
    const lists = new PostingLists(1 << 20);
    const ids = idsOf(9, 20_000);
    lists.addAll(3, ids.slice(0, 15_000));
    for (const id of ids.slice(15_000, 16_000)) lists.add(3, id);
    lists.seal();
    lists.addAll(3, ids.slice(16_000));
    expect([...lists.ids(3)]).toEqual(ids);
    expect([...lists.ids(4)]).toEqual([]);
  });

  it('holds the postings of dense lists in a few bits each once sealed', () => {
    const lists = new PostingLists();
    for (let id = 0; id < 100_000; id += 1) for (let key = 0; key < 10; key += 1) if ((id * 7 + key) % 3 !== 0) lists.add(key, id);
    const unsealed = lists.bytes;
    lists.seal();
    expect(lists.bytes * 8 < lists.postings * 2.5).toBe(true);
    expect(lists.bytes).toBeLessThan(unsealed / 3);
  });
});
