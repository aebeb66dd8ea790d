/**
 * Security: what one tool result may carry. A client drops its connection when a message passes
 * its limit (the SDK's stdio client: 10 MiB), so every use case that returns file content or
 * line text counts it as it will travel: JSON-escaped and in UTF-8 bytes. The budget
 * (Settings.maxResultBytes) is per copy of the content; the MCP adapter sends at most two copies
 * (text block and structuredContent), and the config bounds the setting so two fit.
 */

/** Default bytes of JSON-escaped content one result carries, per copy. */
export const DEFAULT_MAX_RESULT_BYTES = 4 * 1024 * 1024;

/** Largest allowed setting: two copies plus the envelope stay under the SDK stdio client's 10 MiB. */
export const MAX_MAX_RESULT_BYTES = 4.5 * 1024 * 1024;

/**
 * The most escaped UTF-8 bytes one unit of content can cost: a control byte (or a UTF-16 unit of
 * one) becomes \u00XX. Content no longer than budget / 6 fits whatever it holds, uncounted.
 */
export const MAX_ESCAPED_BYTES_PER_UNIT = 6;

/** True when `units` bytes or UTF-16 units of any content fit `budget` escaped bytes. */
export function fitsWhatever(units: number, budget: number): boolean {
  return units * MAX_ESCAPED_BYTES_PER_UNIT <= budget;
}

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const SHORT_ESCAPES = new Set([0x08, 0x09, 0x0a, 0x0c, 0x0d]);

/**
 * Bytes one byte of valid UTF-8 text takes inside a JSON string: `"` and `\` and \b \t \n \f \r
 * take 2, other control characters 6 (\u00XX), everything else (multi-byte characters too) 1.
 */
export function escapedByteCost(byte: number): number {
  if (byte === QUOTE || byte === BACKSLASH) return 2;
  if (byte < 0x20) return SHORT_ESCAPES.has(byte) ? 2 : 6;
  return 1;
}

/** The JSON-escaped UTF-8 length of `bytes` (valid UTF-8 text). */
export function escapedLengthOfBytes(bytes: Uint8Array): number {
  let total = 0;
  for (let i = 0; i < bytes.length; i += 1) total += escapedByteCost(bytes[i]);
  return total;
}

/** The JSON-escaped UTF-8 length of a string (well-formed; lone surrogates are counted as \uXXXX). */
export function escapedLength(text: string): number {
  let total = 0;
  for (let i = 0; i < text.length; i += 1) {
    const unit = text.charCodeAt(i);
    if (unit < 0x80) total += escapedByteCost(unit);
    else if (unit < 0x800) total += 2;
    else if (unit >= 0xd800 && unit <= 0xdbff && i + 1 < text.length && isLowSurrogate(text.charCodeAt(i + 1))) {
      total += 4;
      i += 1;
    } else if (unit >= 0xd800 && unit <= 0xdfff) total += 6;
    else total += 3;
  }
  return total;
}

/**
 * How many leading bytes of UTF-8 text fit in `budget` escaped bytes, ending on a character
 * boundary (never inside a multi-byte sequence).
 */
export function utf8PrefixWithin(bytes: Uint8Array, budget: number): number {
  if (fitsWhatever(bytes.length, budget)) return bytes.length;
  let used = 0;
  let end = 0;
  while (end < bytes.length) {
    const cost = escapedByteCost(bytes[end]);
    if (used + cost > budget) break;
    used += cost;
    end += 1;
  }
  if (end === bytes.length) return end;
  // Back up to the start of the character the budget cut through.
  while (end > 0 && (bytes[end] & 0xc0) === 0x80) end -= 1;
  return end;
}

/** Base64 characters for `byteCount` bytes (no escaping: the alphabet needs none). */
export function base64Length(byteCount: number): number {
  return 4 * Math.ceil(byteCount / 3);
}

/** The most bytes whose base64 form fits in `budget` (a multiple of 3, so pages join cleanly). */
export function base64BytesWithin(budget: number): number {
  return Math.floor(budget / 4) * 3;
}

/** The whole lines at the start of `bytes` whose escaped length fits `budget`. */
export function linesWithin(bytes: Uint8Array, budget: number): { lines: number; bytes: number } {
  let used = 0;
  let lines = 0;
  let end = 0;
  for (let i = 0; i < bytes.length; i += 1) {
    used += escapedByteCost(bytes[i]);
    if (used > budget) return { lines, bytes: end };
    if (bytes[i] === 0x0a || i === bytes.length - 1) {
      lines += 1;
      end = i + 1;
    }
  }
  return { lines, bytes: end };
}

function isLowSurrogate(unit: number): boolean {
  return unit >= 0xdc00 && unit <= 0xdfff;
}
