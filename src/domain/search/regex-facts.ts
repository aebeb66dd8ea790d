import { ALL, and, anyOfStrings, or, type TrigramQuery } from './trigram-query.js';

/**
 * What a piece of a pattern tells about the text it matches (the Code Search "regexpInfo"), in keyed
 * text (trigram-query.ts). Every string set holds every possibility, so each fact stays true of every
 * match: `exact` the whole match is one of these strings (null: too many to list); `prefix` /
 * `suffix` every match starts / ends with one of them; `match` a query every matching text satisfies.
 */
export interface RegexFacts {
  readonly canEmpty: boolean;
  readonly exact: ReadonlySet<string> | null;
  readonly prefix: ReadonlySet<string>;
  readonly suffix: ReadonlySet<string>;
  readonly match: TrigramQuery;
}

/** Bounds that keep the facts small: past them a set is folded into the query and trimmed. */
const MAX_EXACT_STRINGS = 16;
const MAX_EXACT_LENGTH = 12;
const MAX_AFFIX_STRINGS = 16;
const AFFIX_LENGTH = 2;

const NOTHING_KNOWN = new Set(['']);

export const emptyMatch: RegexFacts = { canEmpty: true, exact: NOTHING_KNOWN, prefix: NOTHING_KNOWN, suffix: NOTHING_KNOWN, match: ALL };

export const anyChar: RegexFacts = { canEmpty: false, exact: null, prefix: NOTHING_KNOWN, suffix: NOTHING_KNOWN, match: ALL };

export const anyString: RegexFacts = { ...anyChar, canEmpty: true };

/** One of these keyed strings, exactly (a literal, or a small character class). */
export function oneOf(strings: Iterable<string>): RegexFacts {
  const exact = new Set(strings);
  return normalize({ canEmpty: exact.has(''), exact, prefix: exact, suffix: exact, match: ALL });
}

export function concat(x: RegexFacts, y: RegexFacts): RegexFacts {
  let match = and(x.match, y.match);
  if (x.exact && y.exact) {
    const exact = cross(x.exact, y.exact);
    return normalize({ canEmpty: x.canEmpty && y.canEmpty, exact, prefix: exact, suffix: exact, match });
  }
  const prefix = x.exact ? cross(x.exact, y.prefix) : x.canEmpty ? union(x.prefix, y.prefix) : x.prefix;
  const suffix = y.exact ? cross(x.suffix, y.exact) : y.canEmpty ? union(x.suffix, y.suffix) : y.suffix;
  // The text across the seam: some suffix of x followed by some prefix of y.
  const seamLeft = x.exact ?? x.suffix;
  const seamRight = y.exact ?? y.prefix;
  if (seamLeft.size * seamRight.size <= MAX_AFFIX_STRINGS * MAX_AFFIX_STRINGS) {
    match = and(match, anyOfStrings(cross(seamLeft, seamRight)));
  }
  if (x.exact) match = and(match, anyOfStrings(x.exact));
  if (y.exact) match = and(match, anyOfStrings(y.exact));
  return normalize({ canEmpty: x.canEmpty && y.canEmpty, exact: null, prefix, suffix, match });
}

export function alternate(x: RegexFacts, y: RegexFacts): RegexFacts {
  const canEmpty = x.canEmpty || y.canEmpty;
  if (x.exact && y.exact) {
    const exact = union(x.exact, y.exact);
    return normalize({ canEmpty, exact, prefix: exact, suffix: exact, match: or(x.match, y.match) });
  }
  const xMatch = x.exact ? and(x.match, anyOfStrings(x.exact)) : x.match;
  const yMatch = y.exact ? and(y.match, anyOfStrings(y.exact)) : y.match;
  return normalize({
    canEmpty,
    exact: null,
    prefix: union(x.exact ?? x.prefix, y.exact ?? y.prefix),
    suffix: union(x.exact ?? x.suffix, y.exact ?? y.suffix),
    match: or(xMatch, yMatch),
  });
}

/** x{min,max}; max undefined is unbounded. */
export function repeat(x: RegexFacts, min: number, max: number | undefined): RegexFacts {
  if (max === 0) return emptyMatch;
  if (min === 0) return max === 1 ? alternate(x, emptyMatch) : anyString;
  if (min === 1 && max === 1) return x;
  // Every match starts with a match of x and ends with one; what lies between is not known.
  const match = x.exact ? and(x.match, anyOfStrings(x.exact)) : x.match;
  return normalize({ canEmpty: x.canEmpty, exact: null, prefix: x.exact ?? x.prefix, suffix: x.exact ?? x.suffix, match });
}

/** The query for a whole pattern: everything the facts say about a matching line. */
export function queryOf(facts: RegexFacts): TrigramQuery {
  let match = facts.match;
  if (facts.exact) return and(match, anyOfStrings(facts.exact));
  match = and(match, anyOfStrings(facts.prefix));
  return and(match, anyOfStrings(facts.suffix));
}

function normalize(facts: RegexFacts): RegexFacts {
  let { exact, prefix, suffix, match } = facts;
  if (exact && (exact.size > MAX_EXACT_STRINGS || longest(exact) > MAX_EXACT_LENGTH)) {
    match = and(match, anyOfStrings(exact));
    prefix = exact;
    suffix = exact;
    exact = null;
  }
  if (exact) return { ...facts, exact, prefix: exact, suffix: exact, match };
  // Before a set is trimmed, what its longer strings prove goes into the query.
  if (longest(prefix) > AFFIX_LENGTH) match = and(match, anyOfStrings(prefix));
  if (longest(suffix) > AFFIX_LENGTH) match = and(match, anyOfStrings(suffix));
  return { ...facts, exact, prefix: trim(prefix, 'head'), suffix: trim(suffix, 'tail'), match };
}

function trim(strings: ReadonlySet<string>, keep: 'head' | 'tail'): ReadonlySet<string> {
  for (let length = AFFIX_LENGTH; length > 0; length -= 1) {
    const trimmed = new Set([...strings].map((text) => (keep === 'head' ? text.slice(0, length) : text.slice(-length))));
    if (trimmed.size <= MAX_AFFIX_STRINGS) return trimmed;
  }
  return NOTHING_KNOWN;
}

function cross(left: ReadonlySet<string>, right: ReadonlySet<string>): Set<string> {
  const product = new Set<string>();
  for (const a of left) for (const b of right) product.add(a + b);
  return product;
}

function union(left: ReadonlySet<string>, right: ReadonlySet<string>): Set<string> {
  return new Set([...left, ...right]);
}

function longest(strings: ReadonlySet<string>): number {
  let length = 0;
  for (const text of strings) length = Math.max(length, text.length);
  return length;
}
