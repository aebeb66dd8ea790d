import { fuzzConcurrent } from './concurrent.js';
import { fuzzDifferential, type FuzzReport } from './property.js';

/**
 * The fuzzer in every `npm test`: a fixed seed (the same cases every time, so a change that breaks one
 * fails here for everyone) and a fresh random seed (new cases on every run; the seed is printed, and a
 * failure prints its seed and path for `npm run fuzz -- --seed S --path P`). Long runs: `npm run fuzz`.
 */
const FIXED_SEED = 20261126;

function expectClean(report: FuzzReport, label: string): void {
  process.stdout.write(`fuzz ${label}: seed ${report.seed}, ${report.runs} runs, ${report.operations} operations\n`);
  // The failure text carries the shrunk case and the replay command: shown as the assertion's diff.
  expect(report.failure).toBeNull();
  expect(report.operations).toBeGreaterThan(report.runs);
}

describe('differential fuzzing: NodeFileSystem against the in-memory model, every tool', () => {
  it('holds for a fixed seed', async () => {
    expectClean(await fuzzDifferential({ runs: 40, seed: FIXED_SEED, maxOperations: 20 }), 'sequential, fixed seed');
  }, 60_000);

  it('holds for a random seed (printed)', async () => {
    expectClean(await fuzzDifferential({ runs: 40, maxOperations: 20 }), 'sequential, random seed');
  }, 60_000);

  it('under concurrent symlink swaps, nothing escapes (random seed, printed)', async () => {
    expectClean(await fuzzConcurrent({ runs: 8, maxOperations: 24 }), 'concurrent, random seed');
  }, 60_000);
});
