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

  it('narrow, keeps small values and the largest in 16 bits, and widens only the block a larger value comes to', () => {
    const values = new U32Blocks(true);
    const count = 140_000;
    const valueOf = (i: number) => (i === 70_000 ? 65_535 : i === 70_001 ? 0xffffffff : i === 130_000 ? 2 ** 31 : i % 0xffff);
    for (let i = 0; i < count; i += 1) values.set(i, i % 7 === 0 ? 0xffffffff : valueOf(i));
    // Set again after the block widened: a removed mark set narrow must read back as the largest too.
    for (let i = 0; i < count; i += 1) values.set(i, valueOf(i));
    const wrong: number[] = [];
    for (let i = 0; i < count; i += 1) if (values.get(i) !== valueOf(i)) wrong.push(i);
    expect(wrong).toEqual([]);
    const narrow = new U32Blocks(true);
    narrow.set(5, 0xffffffff);
    narrow.set(6, 0xfffe);
    narrow.set(7, 65_536);
    expect([narrow.get(5), narrow.get(6), narrow.get(7)]).toEqual([0xffffffff, 0xfffe, 65_536]);
    // Two bytes a value while narrow; one wide value widens its own block only.
    const folders = new U32Blocks(true);
    for (let i = 0; i < 3 * 65_536; i += 1) folders.set(i, i % 10_000);
    expect(folders.bytes).toBe(3 * 65_536 * 2);
    folders.set(70_000, 1 << 20);
    expect(folders.bytes).toBe(4 * 65_536 * 2);
    expect(new U32Blocks().bytes).toBe(1024 * 4);
  });
});
