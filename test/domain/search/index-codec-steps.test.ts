import { describe, expect, it } from '@jest/globals';
import { decodeIndex, decodeSteps, encodeIndex, encodeSteps } from '../../../src/domain/search/index-codec.js';
import { trigramQueryOf } from '../../../src/domain/search/regex-trigrams.js';
import { runAtOnce, runInSlices, type Steps } from '../../../src/domain/search/steps.js';
import { TrigramIndex } from '../../../src/domain/search/trigram-index.js';

/** An index of `files` small files, each with a word of its own and one shared by all. */
function large(files: number): TrigramIndex {
  const index = new TrigramIndex(1 << 28);
  for (let n = 0; n < files; n += 1) index.add(`dir-${n % 97}/file-${n}.txt`, { size: 40, modifiedMs: n, inode: n + 1 }, `shared words and unique_${n.toString(36)} here\n`);
  return index;
}

function counted<T>(steps: Steps<T>): { value: T; yields: number } {
  let yields = 0;
  for (;;) {
    const step = steps.next();
    if (step.done) return { value: step.value, yields };
    yields += 1;
  }
}

describe('the index codec in steps (a large save or load gives way to calls)', () => {
  it('yields many times for 20,000 files and writes the very bytes encodeIndex writes', () => {
    const index = large(20_000);
    const { value, yields } = counted(encodeSteps(index));
    expect(yields).toBeGreaterThan(40);
    expect(Buffer.from(value!).equals(Buffer.from(encodeIndex(large(20_000))))).toBe(true);
  });

  it('stops as soon as the bytes would pass their bound, having held no more than the bound (issue 31.2: 160 MiB at 1M files)', () => {
    const index = large(20_000);
    const whole = encodeIndex(index);
    // Exactly at the bound it is written whole; one byte under, it is refused before its end.
    expect(Buffer.from(runAtOnce(encodeSteps(index, new Uint8Array(0), whole.length))!).equals(Buffer.from(whole))).toBe(true);
    const refused = counted(encodeSteps(index, new Uint8Array(0), whole.length - 1));
    expect(refused.value).toBeUndefined();
    // A tenth of the bound: refused after about a tenth of the work.
    const early = counted(encodeSteps(index, new Uint8Array(0), Math.floor(whole.length / 10)));
    expect(early.value).toBeUndefined();
    expect(early.yields).toBeLessThan(refused.yields / 4);
  });

  it('writes into one buffer of exactly its size, after a pass that only counts (no buffer grown by copies; a refused index is never bytes)', () => {
    const index = large(20_000);
    const bytes = runAtOnce(encodeSteps(index, new Uint8Array([1, 2, 3])))!;
    expect(bytes.byteOffset).toBe(0);
    expect(bytes.buffer.byteLength).toBe(bytes.length);
    expect(Array.from(bytes.subarray(0, 3))).toEqual([1, 2, 3]);
    expect(decodeIndex(bytes.subarray(3), 1 << 28)?.size).toBe(20_000);
  });

  it('decodes in steps to the index decodeIndex reads, answering the same', () => {
    const bytes = encodeIndex(large(20_000));
    const { value, yields } = counted(decodeSteps(bytes, 1 << 28));
    expect(yields).toBeGreaterThan(40);
    const whole = decodeIndex(bytes, 1 << 28)!;
    for (const pattern of ['unique_a1', 'shared words', 'absent_xyz']) {
      const query = trigramQueryOf(pattern, { caseInsensitive: false });
      expect(value!.candidates(query)).toEqual(whole.candidates(query));
    }
    expect(value!.size).toBe(20_000);
  });

  it('runInSlices pauses between slices of a long run and returns what runAtOnce returns', async () => {
    function* busy(): Steps<number> {
      let sum = 0;
      for (let n = 0; n < 40; n += 1) {
        const until = performance.now() + 1;
        while (performance.now() < until) sum += 1;
        yield;
      }
      return 40;
    }
    let pauses = 0;
    const value = await runInSlices(busy(), async () => {
      pauses += 1;
    });
    expect({ value, atOnce: runAtOnce(busy()) }).toEqual({ value: 40, atOnce: 40 });
    // 40 ms of work in slices of about 8 ms.
    expect(pauses).toBeGreaterThanOrEqual(2);
  });

  it('compacts in steps: answers stay whole between steps, and the dead ids are gone at the end', () => {
    const index = large(20_000);
    for (let n = 0; n < 20_000; n += 4) index.remove(`dir-${n % 97}/file-${n}.txt`);
    const query = trigramQueryOf('unique_', { caseInsensitive: false });
    const before = index.candidates(query).sort();
    const steps = index.snapshotSteps(64);
    let yields = 0;
    for (let step = steps.next(); !step.done; step = steps.next()) {
      yields += 1;
      if (yields % 50 === 0) expect(index.candidates(query).sort()).toEqual(before);
    }
    expect(yields).toBeGreaterThan(50);
    expect(index.candidates(query).sort()).toEqual(before);
    expect(before).toHaveLength(15_000);
    // Compacted: the files left are read back as they are, and a second snapshot has nothing to compact.
    const copy = decodeIndex(encodeIndex(index), 1 << 28)!;
    expect(copy.size).toBe(15_000);
    expect(copy.candidates(query).sort()).toEqual(before);
    expect(index.snapshotSteps(64).next().done).toBe(true);
  });
});
