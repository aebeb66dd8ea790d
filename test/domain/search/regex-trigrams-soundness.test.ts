import { describe, expect, it } from '@jest/globals';
import fc from 'fast-check';
import { Re2RegexEngine } from '../../../src/adapters/outbound/re2-regex-engine.js';
import type { LineMatcher } from '../../../src/domain/ports/regex-engine.port.js';
import { trigramQueryOf } from '../../../src/domain/search/regex-trigrams.js';
import { describe as describeQuery, satisfies, trigramsOf } from '../../../src/domain/search/trigram-query.js';

/**
 * The one promise the index relies on: a line RE2 matches always satisfies the pattern's trigram
 * query. Patterns come from a grammar over a small alphabet (with the case-folding traps K, S,
 * U+212A and U+017F), lines from the same alphabet, so matches are frequent.
 */
const ALPHABET = ['a', 'b', 'c', 'k', 'K', 's', 'S', 'é', '.', '{', '}', ' ', '1', 'ſ', '\u212a', ']', '😀'];

const leaf = fc.constantFrom(
  'a', 'b', 'c', 'k', 'S', 'é', 'ab', 'abc', 'bca', 'cab', 'K', 'ſ', '\u212a', '😀', ' ', '{', '}',
  '.', '\\d', '\\w', '\\s', '[ab]', '[a-c]', '[^a]', '[]a]', '[[:alpha:]]', '[kK]', '\\pL', '\\p{Greek}',
  '^', '$', '\\b', '\\B', '\\x61', '\\x{62}', '\\u0063', '\\Qa.\\E', '\\.', '\\{', '[{-}]', '(?i)',
);

const pattern: fc.Arbitrary<string> = fc.letrec<{ node: string }>((tie) => ({
  node: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    leaf,
    fc.array(tie('node'), { minLength: 2, maxLength: 4 }).map((parts) => parts.join('')),
    fc.tuple(tie('node'), tie('node')).map(([x, y]) => `${x}|${y}`),
    fc.tuple(tie('node'), fc.constantFrom('(', '(?:', '(?P<n>', '(?<m>', '(?i:', '(?-i:')).map(([x, open]) => `${open}${x})`),
    fc.tuple(tie('node'), fc.constantFrom('*', '+', '?', '{2}', '{0,2}', '{1,}', '{0}', '*?', '{,2}', '{1,3}?')).map(([x, q]) => `(${x})${q}`),
  ),
})).node;

const CHUNKS = ['abc', 'bca', 'cab', 'ab', 'Kab', '\u212aab', 'ſab', 'SAB', 'é1'];

const line = fc.array(fc.constantFrom(...ALPHABET, ...CHUNKS), { maxLength: 12 }).map((parts) => parts.join(''));

/** Characters and the ones RE2 takes for them case-insensitively. */
const FOLDS: readonly (readonly string[])[] = [['a', 'A'], ['b', 'B'], ['k', 'K', '\u212a'], ['s', 'S', 'ſ'], ['é', 'É'], ['.'], ['1']];

/** A literal needle, and a spelling of it that a case-insensitive search must find. */
const foldedNeedle = fc
  .array(fc.tuple(fc.constantFrom(...FOLDS), fc.nat(), fc.nat()), { minLength: 1, maxLength: 8 })
  .map((picks) => ({
    needle: picks.map(([folds, n]) => folds[n % folds.length]!).join(''),
    spelled: picks.map(([folds, , m]) => folds[m % folds.length]!).join(''),
  }));

function compiled(source: string, caseInsensitive: boolean): LineMatcher | undefined {
  try {
    return new Re2RegexEngine().compile(source, { caseInsensitive });
  } catch {
    return undefined;
  }
}

describe('trigramQueryOf against RE2', () => {
  it('never rules out a line that RE2 matches', () => {
    let matched = 0;
    let narrowed = 0;
    fc.assert(
      fc.property(pattern, fc.boolean(), fc.array(line, { minLength: 20, maxLength: 40 }), (source, caseInsensitive, lines) => {
        const matcher = compiled(source, caseInsensitive);
        if (!matcher) return;
        const query = trigramQueryOf(source, { caseInsensitive });
        if (query.op !== 'all') narrowed += 1;
        for (const text of lines) {
          if (!matcher.test(text)) continue;
          matched += 1;
          const has = trigramsOf(text);
          if (!satisfies(query, (trigram) => has.has(trigram))) {
            throw new Error(`${JSON.stringify(source)} (i=${caseInsensitive}) matches ${JSON.stringify(text)} but ${describeQuery(query)} rules it out`);
          }
        }
      }),
      { numRuns: 3000, seed: 31 },
    );
    // The run means something only if it met many matches and many real queries.
    expect(matched).toBeGreaterThan(5000);
    expect(narrowed).toBeGreaterThan(300);
  });

  it('never rules out a line holding a case-insensitive spelling of the literal it searches for', () => {
    fc.assert(
      fc.property(line, foldedNeedle, line, (before, { needle, spelled }, after) => {
        const text = `${before}${spelled}${after}`;
        const source = needle.replace(/\./g, '\\.');
        expect(compiled(source, true)!.test(text)).toBe(true);
        const has = trigramsOf(text);
        expect(satisfies(trigramQueryOf(source, { caseInsensitive: true }), (trigram) => has.has(trigram))).toBe(true);
      }),
      { numRuns: 3000, seed: 7 },
    );
  });
});
