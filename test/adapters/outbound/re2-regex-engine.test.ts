import fc from 'fast-check';
import { DomainError } from '../../../src/domain/errors.js';
import { Re2RegexEngine } from '../../../src/adapters/outbound/re2-regex-engine.js';

describe('Re2RegexEngine', () => {
  const engine = new Re2RegexEngine();

  it('searches unanchored, like grep', () => {
    const matcher = engine.compile('TODO|FIXME', { caseInsensitive: false });
    expect(matcher.test('  // TODO: fix this')).toBe(true);
    expect(matcher.test('nothing here')).toBe(false);
  });

  it('honours case_insensitive', () => {
    expect(engine.compile('error', { caseInsensitive: false }).test('ERROR')).toBe(false);
    expect(engine.compile('error', { caseInsensitive: true }).test('ERROR')).toBe(true);
  });

  it('accepts Go/RE2 syntax: \\d, inline flags, (?P<name>...)', () => {
    expect(engine.compile('test_\\d+\\.go', { caseInsensitive: false }).test('src/test_12.go')).toBe(true);
    expect(engine.compile('(?i)hello', { caseInsensitive: false }).test('HELLO')).toBe(true);
    expect(engine.compile('(?P<word>ab)c', { caseInsensitive: false }).test('xabc')).toBe(true);
  });

  it('gives the same answer on repeated calls (no lastIndex state)', () => {
    const matcher = engine.compile('a', { caseInsensitive: false });
    expect([matcher.test('a'), matcher.test('a'), matcher.test('a')]).toEqual([true, true, true]);
  });

  it('matches non-ASCII text as code points', () => {
    expect(engine.compile('^.{3}$', { caseInsensitive: false }).test('été')).toBe(true);
    expect(engine.compile('😀', { caseInsensitive: false }).test('smile 😀')).toBe(true);
  });

  it('E2E-052: an invalid pattern is INVALID_ARGUMENT with the bare parse error (the caller names parameter and root)', () => {
    let caught: unknown;
    try {
      engine.compile('[invalid', { caseInsensitive: false });
    } catch (error) {
      caught = error;
    }
    expect(caught).toBeInstanceOf(DomainError);
    expect((caught as DomainError).code).toBe('INVALID_ARGUMENT');
    expect((caught as DomainError).message).toBe('missing ]: [invalid');
  });

  it('rejects backtracking-only constructs (lookbehind, backreferences)', () => {
    expect(() => engine.compile('(?<=a)b', { caseInsensitive: false })).toThrow('invalid perl operator: (?<=');
    expect(() => engine.compile('(a)\\1', { caseInsensitive: false })).toThrow('invalid escape sequence: \\1');
  });

  it('matches a pathological pattern on a 100k-character line in linear time', () => {
    const matcher = engine.compile('(a+)+$', { caseInsensitive: false });
    const line = `${'a'.repeat(100_000)}!`;
    const started = process.hrtime.bigint();
    expect(matcher.test(line)).toBe(false);
    const elapsedMs = Number(process.hrtime.bigint() - started) / 1e6;
    // A backtracking engine would not finish this in our lifetime; RE2 takes milliseconds.
    expect(elapsedMs).toBeLessThan(1000);
  });

  describe('mayMatchSomeLine (the look at many lines at once)', () => {
    const block = (pattern: string, caseInsensitive = false) => engine.compile(pattern, { caseInsensitive }).mayMatchSomeLine;

    it('anchors ^ and $ at every line of the block, as test() does at each line alone', () => {
      expect(block('^beta$')?.('alpha\nbeta\ngamma')).toBe(true);
      expect(block('^eta')?.('alpha\nbeta\ngamma')).toBe(false);
      expect(block('alpha$')?.('alpha\nbeta')).toBe(true);
      expect(block('needle_[0-9]{4}')?.('a\nb needle_12\nc')).toBe(false);
      expect(block('error', true)?.('fine\nERROR here')).toBe(true);
    });

    it('gives over UTF-8 bytes (mayMatchSomeLineBytes) what it gives over the decoded text', () => {
      const utf8 = (text: string) => new TextEncoder().encode(text);
      const invalid = new Uint8Array([0x61, 0xff, 0x62, 0x0a, 0x63]);
      const cases: [string, boolean, Uint8Array][] = [
        ['^beta$', false, utf8('alpha\nbeta\ngamma')],
        ['^eta', false, utf8('alpha\nbeta\ngamma')],
        ['é€$', false, utf8('x\nzé€\ny')],
        ['É', true, utf8('é')],
        ['[^a-z]', false, utf8('abc\nd€f')],
        ['needle_[0-9]{4}', false, utf8('needle_12\nneedle_1234')],
        // Invalid UTF-8 decodes to U+FFFD, which these match: bytes must not hide it.
        ['a\\x{FFFD}b', false, invalid],
        ['a.b', false, invalid],
        ['^c$', false, invalid],
      ];
      for (const [pattern, caseInsensitive, bytes] of cases) {
        const matcher = engine.compile(pattern, { caseInsensitive });
        const text = new TextDecoder().decode(bytes);
        expect({ pattern, bytes: matcher.mayMatchSomeLineBytes?.(bytes) }).toEqual({ pattern, bytes: matcher.mayMatchSomeLine?.(text) });
        // A view into a larger buffer (not a Buffer, offset) gives the same answer.
        const padded = new Uint8Array(bytes.length + 8);
        padded.set(bytes, 4);
        expect({ pattern, view: matcher.mayMatchSomeLineBytes?.(padded.subarray(4, 4 + bytes.length)) }).toEqual({ pattern, view: matcher.mayMatchSomeLine?.(text) });
      }
      expect(engine.compile('a\\x{FFFD}b', { caseInsensitive: false }).mayMatchSomeLineBytes?.(invalid)).toBe(true);
    });

    it('linesMayMatchBytes names every line test() is true for, in order, each once (random texts and patterns)', () => {
      const patterns = ['needle_[0-9]{4}', '^b', 'a$', '^$', 'x*', '\\s', 'a[^c]*b', '\\bab\\b', '(?i)é', 'b.a', '[^a-z]', 'ab|^c', '\\x{FFFD}', '(?m)^a'];
      const piece = fc.constantFrom('a', 'b', 'c', ' ', '\n', '\n', 'é', 'needle_', '1234', '\t');
      const texts = fc.array(fc.oneof(piece.map((text) => new TextEncoder().encode(text)), fc.constant(new Uint8Array([0xff]))), { maxLength: 40 });
      fc.assert(
        fc.property(fc.constantFrom(...patterns), fc.boolean(), texts, (pattern, caseInsensitive, chunks) => {
          const bytes = Uint8Array.from(chunks.flatMap((chunk) => [...chunk]));
          const matcher = engine.compile(pattern, { caseInsensitive });
          const lines = new TextDecoder().decode(bytes).split('\n');
          const matching = lines.flatMap((line, index) => (matcher.test(line) ? [index + 1] : []));
          const named = matcher.linesMayMatchBytes!(bytes);
          expect(named).toEqual([...new Set(named)].sort((a, b) => a - b));
          expect(matching.filter((line) => !named.includes(line))).toEqual([]);
          expect(named.every((line) => line >= 1 && line <= lines.length)).toBe(true);
        }),
        { numRuns: 2000 },
      );
      expect(engine.compile('needle_[0-9]{4}', { caseInsensitive: false }).linesMayMatchBytes!(new TextEncoder().encode('a\nneedle_1234 needle_5678\nb\nneedle_1\nneedle_0000'))).toEqual([2, 5]);
    });

    it('is absent where a block could hide a matching line: \\A, \\z and inline flags turned off', () => {
      expect(block('\\Abeta')).toBeUndefined();
      expect(block('beta\\z')).toBeUndefined();
      expect(block('(?-m)^beta')).toBeUndefined();
      expect(block('(?i-s:beta)')).toBeUndefined();
      expect(engine.compile('\\Abeta', { caseInsensitive: false }).mayMatchSomeLineBytes).toBeUndefined();
      expect(engine.compile('\\Abeta', { caseInsensitive: false }).linesMayMatchBytes).toBeUndefined();
      expect(engine.compile('\\Abeta', { caseInsensitive: false }).test('beta')).toBe(true);
    });
  });
});
