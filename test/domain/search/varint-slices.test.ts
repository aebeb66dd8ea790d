import { describe, expect, it } from '@jest/globals';
import { VarintSlices } from '../../../src/domain/search/varint-slices.js';

const valuesOf = (slices: VarintSlices, slot: number) => {
  const values: number[] = [];
  slices.read(slot, (value) => values.push(value));
  return values;
};

describe('VarintSlices', () => {
  it('reads every slot back after a clear that keeps its pages, with nothing of the values before it', () => {
    const slices = new VarintSlices();
    // Past one 1 MiB page: 3 slots of 200,000 values of 1-3 bytes.
    let held = 0;
    const written = (round: number) => [0, 1, 2].map((slot) => Array.from({ length: 200_000 }, (_value, n) => (n * (slot + 1) * 7919 + round) % 100_000));
    for (const round of [0, 1, 2]) {
      const lists = written(round);
      lists.forEach((values, slot) => values.forEach((value) => slices.write(slot, value)));
      lists.forEach((values, slot) => expect(valuesOf(slices, slot)).toEqual(values));
      expect(slices.bytes).toBeGreaterThan(1 << 20);
      // The same values again take the pages kept, not new ones.
      if (round === 0) held = slices.pagesHeld;
      else expect(slices.pagesHeld).toBe(held);
      slices.clear(round < 2);
      expect([0, 1, 2].map((slot) => slices.count(slot))).toEqual([0, 0, 0]);
      expect(slices.bytes).toBe(0);
    }
    // A clear that keeps nothing lets every page go.
    expect(slices.pagesHeld).toBe(0);
    // A slot written after a clear holds only what came after it.
    slices.write(1, 42);
    expect(valuesOf(slices, 1)).toEqual([42]);
    expect(valuesOf(slices, 0)).toEqual([]);
  });
});
