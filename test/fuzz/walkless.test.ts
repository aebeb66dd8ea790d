import fc from 'fast-check';
import { runWalkless, walklessOperation, walklessTotals } from './walkless.js';

/**
 * Issue 31.2: grep and glob answered from the walk snapshot equal the same calls answered by a walk,
 * under random changes made outside the server and through it (a fixed seed and a random, printed one).
 * Long runs: `npm run fuzz -- --walkless --runs N`.
 */
describe('walk snapshot against a walk, on disk', () => {
  for (const seed of [20261128, Math.floor(Math.random() * 2 ** 31)]) {
    it(`answers as a walk does (seed ${seed})`, async () => {
      Object.assign(walklessTotals, { runs: 0, operations: 0, comparisons: 0, disagreements: 0, fromSnapshot: 0, byWalk: 0 });
      await fc.assert(fc.asyncProperty(fc.array(walklessOperation, { minLength: 1, maxLength: 12 }), runWalkless), { numRuns: 15, seed });
      expect(walklessTotals.disagreements).toBe(0);
      expect(walklessTotals.comparisons).toBeGreaterThan(walklessTotals.runs);
      // Most searches are answered without a walk (the rest: a rule file changed, a build under way, ignore: none).
      expect(walklessTotals.fromSnapshot).toBeGreaterThan(walklessTotals.byWalk);
      process.stdout.write(`walkless fuzz seed ${seed}: ${JSON.stringify(walklessTotals)}\n`);
    }, 120_000);
  }
});
