/**
 * A boolean query over trigrams (Russ Cox, "Regular Expression Matching with a Trigram Index"):
 * a file can hold a matching line only if its trigram set satisfies the query. The query only ever
 * narrows candidates; RE2 still verifies every line, so a query may be weaker than the pattern but
 * never stronger ('all' is always a correct answer).
 *
 * Trigrams are three UTF-16 code units of keyed text: ASCII letters lowered, everything else as is,
 * so one index serves case-sensitive and case-insensitive patterns alike.
 */
export type TrigramQuery =
  | { readonly op: 'all' }
  | { readonly op: 'trigram'; readonly trigram: string }
  | { readonly op: 'and' | 'or'; readonly subs: readonly TrigramQuery[] };

export const ALL: TrigramQuery = { op: 'all' };

/** The key of one code unit: ASCII A-Z lowered, the rest unchanged. */
export function keyUnit(unit: number): number {
  return unit >= 0x41 && unit <= 0x5a ? unit + 0x20 : unit;
}

export function keyText(text: string): string {
  let keyed = '';
  for (let i = 0; i < text.length; i += 1) keyed += String.fromCharCode(keyUnit(text.charCodeAt(i)));
  return keyed;
}

/** Every trigram of the text, keyed (lines are not split: a line's trigrams are a subset). */
export function trigramsOf(text: string): Set<string> {
  const found = new Set<string>();
  if (text.length < 3) return found;
  let first = keyUnit(text.charCodeAt(0));
  let second = keyUnit(text.charCodeAt(1));
  for (let i = 2; i < text.length; i += 1) {
    const third = keyUnit(text.charCodeAt(i));
    found.add(String.fromCharCode(first, second, third));
    first = second;
    second = third;
  }
  return found;
}

export function and(left: TrigramQuery, right: TrigramQuery): TrigramQuery {
  return combine('and', left, right);
}

export function or(left: TrigramQuery, right: TrigramQuery): TrigramQuery {
  return combine('or', left, right);
}

function combine(op: 'and' | 'or', left: TrigramQuery, right: TrigramQuery): TrigramQuery {
  if (left.op === 'all') return op === 'and' ? right : ALL;
  if (right.op === 'all') return op === 'and' ? left : ALL;
  const subs = [...operands(op, left), ...operands(op, right)];
  const unique = dedupe(subs);
  return unique.length === 1 ? unique[0]! : { op, subs: unique };
}

function operands(op: 'and' | 'or', query: TrigramQuery): readonly TrigramQuery[] {
  return query.op === op ? query.subs : [query];
}

function dedupe(subs: TrigramQuery[]): TrigramQuery[] {
  const seen = new Set<string>();
  return subs.filter((sub) => {
    const key = describe(sub);
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}

/**
 * The query "the text contains one of these strings": OR over the strings of AND over each
 * string's trigrams. A string shorter than three units says nothing, so the whole set then says nothing.
 */
export function anyOfStrings(strings: Iterable<string>): TrigramQuery {
  let query: TrigramQuery | undefined;
  for (const text of strings) {
    if (text.length < 3) return ALL;
    let each: TrigramQuery = ALL;
    for (let i = 0; i + 3 <= text.length; i += 1) each = and(each, { op: 'trigram', trigram: text.slice(i, i + 3) });
    query = query === undefined ? each : or(query, each);
  }
  return query ?? ALL;
}

/** True when a text whose trigrams answer `has` may satisfy the query. */
export function satisfies(query: TrigramQuery, has: (trigram: string) => boolean): boolean {
  switch (query.op) {
    case 'all':
      return true;
    case 'trigram':
      return has(query.trigram);
    case 'and':
      return query.subs.every((sub) => satisfies(sub, has));
    case 'or':
      return query.subs.some((sub) => satisfies(sub, has));
  }
}

/** A stable text form, for tests and deduplication: "abc", (a AND b), (a OR b), "*" for all. */
export function describe(query: TrigramQuery): string {
  switch (query.op) {
    case 'all':
      return '*';
    case 'trigram':
      return JSON.stringify(query.trigram);
    case 'and':
    case 'or':
      return `(${query.subs.map(describe).join(` ${query.op.toUpperCase()} `)})`;
  }
}
