import {
  base64BytesWithin,
  base64Length,
  escapedLength,
  escapedLengthOfBytes,
  fitsWhatever,
  MAX_ESCAPED_BYTES_PER_UNIT,
  linesWithin,
  utf8PrefixWithin,
} from '../../src/domain/result-budget.js';

/** What a string really costs inside a JSON message: UTF-8 bytes of JSON.stringify, less the quotes. */
const sent = (text: string) => Buffer.byteLength(JSON.stringify(text)) - 2;

const SAMPLES = ['', 'plain', 'say "hi" \\ there', 'tab\tnew\nline\r\n', '\u0001\u0002\u001f\u007f', 'héllo wörld', '日本語', '😀 emoji', '\u2028\u2029', 'a\u0000b'];

describe('escaped lengths', () => {
  it.each(SAMPLES)('counts %j exactly as JSON.stringify sends it', (text) => {
    expect(escapedLength(text)).toBe(sent(text));
    expect(escapedLengthOfBytes(Buffer.from(text, 'utf8'))).toBe(sent(text));
  });

  it('counts a lone surrogate as the \\uXXXX escape JSON.stringify writes', () => {
    expect(escapedLength('a\ud800b')).toBe(sent('a\ud800b'));
  });

  it('gives base64 lengths and the bytes whose base64 fits, in whole groups of 3', () => {
    expect([base64Length(0), base64Length(1), base64Length(3), base64Length(4)]).toEqual([0, 4, 4, 8]);
    expect([base64BytesWithin(8), base64BytesWithin(11), base64BytesWithin(3)]).toEqual([6, 6, 0]);
  });
});

describe('prefixes within a budget', () => {
  it('stops on a character boundary, never inside a multi-byte sequence', () => {
    const bytes = Buffer.from('ab日本', 'utf8'); // 2 + 3 + 3 bytes
    expect(utf8PrefixWithin(bytes, 4)).toBe(2);
    expect(utf8PrefixWithin(bytes, 5)).toBe(5);
    expect(utf8PrefixWithin(bytes, 100)).toBe(8);
  });

  it('counts escapes against the budget', () => {
    const bytes = Buffer.from('""ab', 'utf8'); // the quotes cost 2 each
    expect(utf8PrefixWithin(bytes, 4)).toBe(2);
    expect(utf8PrefixWithin(bytes, 5)).toBe(3);
  });

  it('keeps whole lines only, counting a last line without a newline', () => {
    const bytes = Buffer.from('ab\n"c"\nd', 'utf8'); // escaped, the lines cost 4, 7, 1
    expect(linesWithin(bytes, 3)).toEqual({ lines: 0, bytes: 0 });
    expect(linesWithin(bytes, 10)).toEqual({ lines: 1, bytes: 3 });
    expect(linesWithin(bytes, 11)).toEqual({ lines: 2, bytes: 7 });
    expect(linesWithin(bytes, 12)).toEqual({ lines: 3, bytes: 8 });
  });
});

describe('content short enough to fit uncounted', () => {
  it('is bounded by the costliest escape: no content of n units takes more than 6n escaped bytes', () => {
    for (const unit of ['\u0001', '"', '\\', '\n', 'é', '\u2028', '😀', '\uD800', 'a']) {
      const text = unit.repeat(100);
      expect(Buffer.byteLength(JSON.stringify(text)) - 2).toBeLessThanOrEqual(text.length * MAX_ESCAPED_BYTES_PER_UNIT);
      expect(escapedLength(text)).toBeLessThanOrEqual(text.length * MAX_ESCAPED_BYTES_PER_UNIT);
    }
  });

  it('keeps the exact count where the bound cannot decide: worst-case bytes fill the budget exactly', () => {
    const controls = new Uint8Array(100).fill(1);
    expect(utf8PrefixWithin(controls, 600)).toBe(100);
    expect(utf8PrefixWithin(controls, 599)).toBe(99);
    expect(utf8PrefixWithin(new Uint8Array(100).fill(0x61), 120)).toBe(100);
    expect(fitsWhatever(100, 600)).toBe(true);
    expect(fitsWhatever(100, 599)).toBe(false);
  });
});
