import { Re2RegexEngine } from '../../../src/adapters/outbound/re2-regex-engine.js';
import { compileGlob } from '../../../src/domain/search/glob-pattern.js';
import { globEnding, globToRegex } from '../../../src/domain/search/glob-to-regex.js';
import { thrownDomainError } from '../../support/domain.js';

const engine = new Re2RegexEngine();
const matches = (glob: string, path: string) => compileGlob(glob, engine)(path);

// [glob, path, expected]
const TABLE: [string, string, boolean][] = [
  // `*` and `?`: within one segment, dot files included
  ['*', 'a.txt', true],
  ['*', '.env', true],
  ['*', '', true],
  ['*', 'a/b', false],
  ['*.go', 'main.go', true],
  ['*.go', 'src/main.go', false],
  ['*.go', 'main.golang', false],
  ['a*b*c', 'aXbYc', true],
  ['a*b*c', 'a/b/c', false],
  ['?', 'a', true],
  ['?', '.', true],
  ['?', '/', false],
  ['?', 'ab', false],
  ['a?c', 'abc', true],
  ['a?c', 'a/c', false],
  ['src/*/index.js', 'src/app/index.js', true],
  ['src/*/index.js', 'src/a/b/index.js', false],
  ['*', 'line\nbreak', true],
  // `**` as a whole segment: zero or more segments
  ['**', 'a', true],
  ['**', 'a/b/c', true],
  ['**', '.git/config', true],
  ['**/x', 'x', true],
  ['**/x', 'a/b/x', true],
  ['**/x', 'ax', false],
  ['**/x', 'a/bx', false],
  ['**/*.go', 'top.go', true],
  ['**/*.go', 'src/pkg/b.go', true],
  ['**/*.yml', '.github/workflows/ci.yml', true],
  ['a/**', 'a', true],
  ['a/**', 'a/b', true],
  ['a/**', 'a/b/c', true],
  ['a/**', 'ab', false],
  ['a/**', 'b/a', false],
  ['a/**/b', 'a/b', true],
  ['a/**/b', 'a/x/b', true],
  ['a/**/b', 'a/x/y/b', true],
  ['a/**/b', 'a/xb', false],
  ['a/**/b', 'ab', false],
  ['**/**', 'a/b', true],
  ['**/x/**', 'p/x/q/r', true],
  ['**/\n', 'a/\n', true],
  // `**` not forming a whole segment is `*`
  ['**a', 'xa', true],
  ['**a', 'x/a', false],
  ['a**', 'a/b', false],
  ['a**', 'abc', true],
  ['a/**b', 'a/xb', true],
  ['a/**b', 'a/x/b', false],
  ['***', 'a/b', true],
  // trailing '/': relative paths have none, so nothing matches
  ['src/', 'src', false],
  ['src/', 'src/', true],
  ['src/*/', 'src/a', false],
  // character classes
  ['[abc]', 'b', true],
  ['[abc]', 'd', false],
  ['[a-z].txt', 'q.txt', true],
  ['[a-z].txt', 'Q.txt', false],
  ['[!abc]', 'd', true],
  ['[!abc]', 'a', false],
  ['[^abc]', 'd', true],
  ['[^abc]', 'c', false],
  ['[!abc]', '/', false],
  ['x[!a]y', 'x/y', false],
  ['[]a]', ']', true],
  ['[]a]', 'a', true],
  ['[!]]', ']', false],
  ['[!]]', 'x', true],
  ['[a-]', '-', true],
  ['[-a]', '-', true],
  ['[a\\]b]', ']', true],
  ['[\\^x]', '^', true],
  ['[[]', '[', true],
  ['[.$(|)+]', '$', true],
  ['[.$(|)+]', 'x', false],
  ['[[:digit:]]*', '7up', true],
  ['[[:digit:]]*', 'up', false],
  ['[😀-😂]', '😁', true],
  // braces: alternation, nested, globs inside, empty alternatives
  ['*.{yml,yaml}', 'ci.yaml', true],
  ['*.{yml,yaml}', 'ci.json', false],
  ['{README*,src}', 'README.md', true],
  ['{README*,src}', 'src', true],
  ['{a,{b,c}d}', 'cd', true],
  ['{a,{b,c}d}', 'c', false],
  ['a{,b}', 'a', true],
  ['a{,b}', 'ab', true],
  ['{a,}', '', true],
  ['{,}x', 'x', true],
  ['{src,lib}/**/*.ts', 'lib/a/b.ts', true],
  ['{**/*.ts,*.md}', 'a/b.ts', true],
  ['{**/*.ts,*.md}', 'a/b.md', false],
  ['a/{**,x}', 'a/p/q', true],
  ['{a/**,b}c', 'a/xc', true],
  ['{a/**,b}c', 'a/x/yc', false],
  ['{a}', '{a}', true],
  ['{a}', 'a', false],
  ['{}', '{}', true],
  ['a}b', 'a}b', true],
  ['a,b', 'a,b', true],
  ['{a|b,c}', 'a|b', true],
  // extglobs
  ['@(a|b).txt', 'b.txt', true],
  ['@(a|b).txt', 'ab.txt', false],
  ['?(x)y', 'y', true],
  ['?(x)y', 'xy', true],
  ['?(x)y', 'xxy', false],
  ['*(ab)', '', true],
  ['*(ab)', 'abab', true],
  ['*(ab)', 'aba', false],
  ['+(ab)', '', false],
  ['+(ab)', 'abab', true],
  ['+(*)c', 'aaabc', true],
  ['+(*)c', 'aaab', false],
  ['+(*)c', 'a/c', false],
  ['@(a|{b,c})x', 'cx', true],
  ['@(*.ts|*.js)', 'a.js', true],
  ['@(a,b)', 'a,b', true],
  ['**(a)', 'xa', true],
  ['a(b)', 'a(b)', true],
  // escapes and regex metacharacters are literal
  ['\\*', '*', true],
  ['\\*', 'a', false],
  ['\\?', '?', true],
  ['\\[a]', '[a]', true],
  ['\\{a,b}', '{a,b}', true],
  ['a\\', 'a\\', true],
  ['\\a', 'a', true],
  ['a.b', 'a.b', true],
  ['a.b', 'axb', false],
  ['(a)', '(a)', true],
  ['a+', 'a+', true],
  ['a+', 'aa', false],
  ['$x^', '$x^', true],
  ['a|b', 'a|b', true],
  ['a|b', 'a', false],
  ['x)', 'x)', true],
  ['!a', '!a', true],
  ['!a', 'b', false],
  ['@', '@', true],
  ['é€.txt', 'é€.txt', true],
  ['a b#c', 'a b#c', true],
  // case-sensitive, whole path
  ['*.GO', 'a.go', false],
  ['b', 'ab', false],
  ['a', 'ab', false],
];

describe('globToRegex', () => {
  it.each(TABLE)('%j against %j: %s', (glob, path, expected) => {
    expect(matches(glob, path)).toBe(expected);
  });

  it('anchors the translation and escapes regex metacharacters', () => {
    expect(globToRegex('a.b')).toBe('^a\\.b$');
    expect(globToRegex('*.{yml,yaml}')).toBe('^[^/]*\\.(?:yml|yaml)$');
    expect(globToRegex('src/**/*.go')).toBe('^src/(?:[^/]*/)*[^/]*\\.go$');
    expect(globToRegex('[!a-c]')).toBe('^[^/a-c]$');
    expect(globToRegex('+(a|b)')).toBe('^(?:a|b)+$');
  });

  it.each([
    ['!(a)', 'negated extglob !(...) is not supported'],
    ['x/@(a|!(b))', 'negated extglob !(...) is not supported'],
    ['[abc', "unclosed '[' in glob"],
    ['src/[', "unclosed '[' in glob"],
    ['[]', "unclosed '[' in glob"],
    ['[a\\', "unclosed '[' in glob"],
    ['{a,b', "unclosed '{' in glob"],
    ['{a,{b}', "unclosed '{' in glob"],
    ['@(a|b', "unclosed '(' in glob"],
    ['[z-a]', 'invalid range z-a in glob'],
  ])('refuses %j: INVALID_ARGUMENT %j', (glob, reason) => {
    const error = thrownDomainError(() => globToRegex(glob));
    expect(error.code).toBe('INVALID_ARGUMENT');
    expect(error.message).toBe(reason);
  });

  it('refuses a glob longer than 1000 characters before translating it', () => {
    expect(matches('a'.repeat(1000), 'a'.repeat(1000))).toBe(true);
    const error = thrownDomainError(() => compileGlob('a'.repeat(1001), engine));
    expect(error.toClientText()).toBe('INVALID_ARGUMENT: pattern longer than 1000 characters');
  });

  it('matches in linear time: extglobs that backtrack exponentially in a JS RegExp', () => {
    const name = `${'a'.repeat(5000)}b`;
    const started = Date.now();
    for (const glob of ['+(*)c', '*(*(a))c', '*a*a*a*a*a*a*a*a*a*a*c', '+(a|aa)c', '**/+(*)c']) {
      expect(matches(glob, name)).toBe(false);
    }
    expect(Date.now() - started).toBeLessThan(1000);
  });

  it('translates deeply nested groups without overflowing', () => {
    const nested = `${'{x,'.repeat(240)}y${'}'.repeat(240)}`;
    expect(matches(nested, 'y')).toBe(true);
    expect(matches(nested, 'xy')).toBe(false);
  });
});

describe('globEnding (the literal-ending fast path of compileGlob)', () => {
  it.each([
    ['**/*.ts', { suffix: '.ts', decides: 'any-depth' }],
    ['*.ts', { suffix: '.ts', decides: 'top-level' }],
    ['src/**/*_test.go', { suffix: '_test.go', decides: false }],
    ['**/*\\*', { suffix: '*', decides: 'any-depth' }],
    ['**/a*.{yml,yaml}', null],
    ['**/*', null],
    ['**/x/*.ts', { suffix: '.ts', decides: false }],
    ['*\\/x', { suffix: '/x', decides: false }],
  ])('%s', (glob, expected) => {
    expect(globEnding(glob)).toEqual(expected);
  });

  it.each([
    ['**/*.ts', '.ts'],
    ['src/**/*_test.go', '_test.go'],
    ['*.ts', '.ts'],
    ['*\\/x', undefined],
    ['**/*', undefined],
    ['**/a*.{yml,yaml}', undefined],
  ])('compileGlob(%s).nameEnding is %s: the part of the ending a name alone decides', (glob, expected) => {
    expect(compileGlob(glob, engine).nameEnding).toBe(expected);
  });

  it('byName, where set (a ** ending), answers on the last segment as the predicate does on the path', () => {
    expect([compileGlob('**/*.ts', engine).byName, compileGlob('*.ts', engine).byName, compileGlob('src/**/*_test.go', engine).byName].map((byName) => byName !== undefined)).toEqual([true, false, false]);
    let compared = 0;
    const paths = ['a.ts', 'x/y/a.ts', '.ts', 'a.ts/b', 'a.tsx', 'dir.ts/file.js', 'x/a.test.ts', 'x/.test.ts', 'a*', 'x/a\\*', 'ts'];
    const more = ['**/*.ts', '**/*.test.ts', '**/*\\*', '**/*ts'].flatMap((glob) => paths.map((path): [string, string] => [glob, path]));
    for (const [glob, path] of [...TABLE, ...more]) {
      const predicate = compileGlob(glob, engine);
      if (predicate.byName === undefined) continue;
      expect([glob, path, predicate.byName(path.split('/').pop()!)]).toEqual([glob, path, predicate(path)]);
      compared += 1;
    }
    expect(compared).toBeGreaterThan(40);
  });

  it('a path the predicate accepts always has a last segment ending with its nameEnding', () => {
    for (const [glob, path] of TABLE) {
      const predicate = compileGlob(glob, engine);
      if (predicate.nameEnding !== undefined && predicate(path)) expect([glob, path, path.split('/').pop()!.endsWith(predicate.nameEnding)]).toEqual([glob, path, true]);
    }
  });

  it('never changes an answer: every table row agrees with the regex alone', () => {
    for (const [glob, path] of TABLE) {
      const regex = engine.compile(globToRegex(glob), { caseInsensitive: false });
      expect([glob, path, matches(glob, path)]).toEqual([glob, path, regex.test(path)]);
    }
  });
});
