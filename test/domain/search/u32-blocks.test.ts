import { describe, expect, it } from '@jest/globals';
import { U32Blocks } from '../../../src/domain/search/u32-blocks.js';

describe('U32Blocks', () => {
  it('keeps every value set in order across the first block growing and the blocks after it', () => {
    const values = new U32Blocks();
    const count = 200_000;
    for (let i = 0; i < count; i += 1) values.set(i, (i * 2_654_435_761) >>> 0);
    const wrong: number[] = [];
    for (let i = 0; i < count; i += 1) if (values.get(i) !== (i * 2_654_435_761) >>> 0) wrong.push(i);
    expect(wrong).toEqual([]);
  });

  it('makes room for an index set out of order, the values between reading 0, and overwrites in place', () => {
    const values = new U32Blocks();
    values.set(3, 0xffffffff);
    values.set(140_000, 9);
    values.set(3, 4);
    expect([values.get(3), values.get(2_000), values.get(65_535), values.get(65_536), values.get(140_000)]).toEqual([4, 0, 0, 0, 9]);
  });
});
