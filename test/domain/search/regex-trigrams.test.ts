import { describe as group, expect, it } from '@jest/globals';
import { trigramQueryOf } from '../../../src/domain/search/regex-trigrams.js';
import { describe, satisfies, trigramsOf } from '../../../src/domain/search/trigram-query.js';

const sensitive = (pattern: string): string => describe(trigramQueryOf(pattern, { caseInsensitive: false }));
const insensitive = (pattern: string): string => describe(trigramQueryOf(pattern, { caseInsensitive: true }));

group('trigramQueryOf', () => {
  it.each([
    ['literal', 'hello', '("hel" AND "ell" AND "llo")'],
    ['short literal says nothing', 'ab', '*'],
    ['upper case is keyed lower', 'ABCd', '("abc" AND "bcd")'],
    ['escaped punctuation is literal', 'a\\.b\\(c', '("a.b" AND ".b(" AND "b(c")'],
    ['alternation of literals', 'TODO|FIXME', '(("tod" AND "odo") OR ("fix" AND "ixm" AND "xme"))'],
    ['alternation with a short branch', 'abc|de', '*'],
    ['small class is expanded', 'ab[cd]e', '(("abc" AND "bce") OR ("abd" AND "bde"))'],
    ['wide class is any character', 'abc[a-z]def', '("abc" AND "def")'],
    ['negated class is any character', 'abc[^x]def', '("abc" AND "def")'],
    ['class escapes are any character', 'foo\\d+bar\\wbaz', '("foo" AND "bar" AND "baz")'],
    ['dot is any character', 'abc.def', '("abc" AND "def")'],
    ['anchors match nothing', '^abc$', '"abc"'],
    ['word boundary matches nothing', '\\bfoo\\b', '"foo"'],
    ['star drops its operand', 'abc(xyz)*def', '("abc" AND "def")'],
    ['question mark is an alternation', 'colou?r', '(("col" AND "olo" AND "lou" AND "our") OR ("col" AND "olo" AND "lor"))'],
    ['plus keeps its operand', 'a(bcd)+e', '("bcd" AND "abc" AND "cde")'],
    ['counted repetition from one', 'x(abc){2,5}y', '("abc" AND "xab" AND "bcy")'],
    ['counted repetition from zero', 'abc(xyz){0,3}def', '("abc" AND "def")'],
    ['a brace that is no repetition is literal', 'f() {', '"f {"'],
    ['a brace that is no repetition is literal, longer', 'main() {x', '("mai" AND "ain" AND "in " AND "n {" AND " {x")'],
    ['non-capturing and named groups', '(?:abc)(?P<n>def)(?<m>ghi)', '("abc" AND "bcd" AND "cde" AND "def" AND "efg" AND "fgh" AND "ghi")'],
    ['hex escapes', '\\x41\\x{42}\\u0043', '"abc"'],
    ['quoted text', '\\Qa.b*c\\E', '("a.b" AND ".b*" AND "b*c")'],
    ['non-ASCII literal kept as is when case matters', 'héllo', '("hél" AND "éll" AND "llo")'],
    ['empty pattern', '', '*'],
    ['only a class', '[a-z]+', '*'],
  ])('%s: %s', (_name, pattern, expected) => {
    expect(sensitive(pattern)).toBe(expected);
  });

  it.each([
    ['letters are folded', 'HeLLo', '("hel" AND "ell" AND "llo")'],
    ['k and s may be non-ASCII letters', 'kiss', '*'],
    ['k breaks a literal in two', 'abcXkYdef', '("abc" AND "bcx" AND "yde" AND "def")'],
    ['non-ASCII characters are unknown', 'abcé', '"abc"'],
  ])('case-insensitive %s: %s', (_name, pattern, expected) => {
    expect(insensitive(pattern)).toBe(expected);
  });

  it('an inline (?i) flag makes the whole pattern case-insensitive', () => {
    expect(sensitive('abck(?i)def')).toBe(insensitive('abckdef'));
  });

  it.each(['(?=abc)', 'abc\\1', 'abc\\cA', 'abc\\k<x>', '(abc', 'abc)', 'abc[def'])('gives up on what it does not read: %s', (pattern) => {
    expect(sensitive(pattern)).toBe('*');
  });

  it('a class whose first member is ] reads to the next ]', () => {
    expect(sensitive('[]a]bcd')).toBe('(("]bc" AND "bcd") OR ("abc" AND "bcd"))');
    expect(sensitive('[[:alpha:]]foo')).toBe('"foo"');
  });

  it('the query holds for the lines the pattern matches', () => {
    const query = trigramQueryOf('(foo|bar)baz\\d', { caseInsensitive: false });
    const matches = (line: string): boolean => satisfies(query, (trigram) => trigramsOf(line).has(trigram));
    expect(matches('x FOOBAZ1')).toBe(true);
    expect(matches('barbaz9')).toBe(true);
    expect(matches('quxbaz1')).toBe(false);
  });
});
