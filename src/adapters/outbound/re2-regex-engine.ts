import { isUtf8 } from 'node:buffer';
import { createRequire } from 'node:module';
import { injectable } from 'inversify';
import type RE2 from 're2';
import { errors } from '../../domain/errors.js';
import type { LineMatcher, RegexEngine } from '../../domain/ports/regex-engine.port.js';

// The addon is loaded on the first pattern, not at start-up: a server that never searches never
// maps it (issue 31: dlopen and its initialisation cost ~10 ms of every start).
const requireAddon = createRequire(import.meta.url);
let addon: typeof RE2 | undefined;
const re2 = (): typeof RE2 => (addon ??= requireAddon('re2') as typeof RE2);

/**
 * Patterns from clients run on RE2: matching is linear in the input, so a pattern like
 * `(a+)+$` cannot stall the event loop the way a backtracking RegExp would. The syntax is
 * RE2's (Go's), so lookarounds and backreferences are rejected at compile time. A parse error
 * is INVALID_ARGUMENT with RE2's reason alone: the caller knows which parameter and root it was.
 */
@injectable()
export class Re2RegexEngine implements RegexEngine {
  compile(pattern: string, options: { caseInsensitive: boolean }): LineMatcher {
    // No 'g' flag: test() then keeps no lastIndex state between lines.
    const flags = options.caseInsensitive ? 'iu' : 'u';
    let compiled: RE2;
    try {
      compiled = new (re2())(pattern, flags);
    } catch (error) {
      throw errors.invalidArgument(reasonOf(error));
    }
    const block = blockMatcher(pattern, flags);
    const everyMatch = blockMatcher(pattern, `${flags}g`);
    if (!block || !everyMatch) return { test: (line) => compiled.test(line) };
    return {
      test: (line) => compiled.test(line),
      mayMatchSomeLine: (text) => block.test(text),
      mayMatchSomeLineBytes: (bytes) => block.test(asUtf8Input(bytes)),
      linesMayMatchBytes: (bytes) => linesWithMatch(everyMatch, asUtf8Input(bytes)),
    };
  }
}

const decoder = new TextDecoder('utf-8');

/**
 * RE2 matches a Buffer as UTF-8 in place, sparing the decode to a JS string and RE2's encode back.
 * Only valid UTF-8 goes in as bytes: a decoder turns invalid sequences into U+FFFD, which a pattern
 * may match, so such bytes are decoded first to keep the answer exactly what the text would give.
 */
function asUtf8Input(bytes: Uint8Array): Buffer | string {
  if (!isUtf8(bytes)) return decoder.decode(bytes);
  return Buffer.isBuffer(bytes) ? bytes : Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
}

/**
 * The lines (1-based) in which a match of the block matcher `global` starts, each line once: the
 * search goes on from the next line. A line that matches alone has a match starting in it in the
 * block (see blockMatcher), so the leftmost match found from its start or before starts in it (or in
 * an earlier line that is reported): no line that can match is passed over. Offsets are in bytes for
 * a Buffer, in UTF-16 units for a string; '\n' is one unit in both.
 */
function linesWithMatch(global: RE2, input: Buffer | string): number[] {
  const lines: number[] = [];
  let line = 1;
  let counted = 0;
  global.lastIndex = 0;
  for (;;) {
    const match = typeof input === 'string' ? global.exec(input) : global.exec(input);
    if (match === null) break;
    for (let newline = input.indexOf('\n', counted); newline !== -1 && newline < match.index; newline = input.indexOf('\n', newline + 1)) line += 1;
    counted = match.index;
    lines.push(line);
    const end = input.indexOf('\n', match.index);
    if (end === -1) break;
    global.lastIndex = end + 1;
  }
  return lines;
}

/**
 * The same pattern over a block of lines, with ^ and $ at every line boundary ('m'), so that a line
 * that matches alone also matches inside the block: a block without a match has no matching line,
 * and grep skips splitting it. Where that promise cannot be kept the block matcher is left out:
 * \A and \z anchor to the whole text, not a line, and an inline flag group that turns a flag off
 * ("(?-m)", "(?i-s:") could turn multi-line off. Either way the answer is only ever "look closer".
 */
function blockMatcher(pattern: string, flags: string): RE2 | undefined {
  if (/\\[Az]|\(\?[a-zA-Z]*-/.test(pattern)) return undefined;
  try {
    return new (re2())(pattern, `${flags}m`);
  } catch {
    return undefined;
  }
}

// The addon's SyntaxError may come from another realm (jest's VM), so `instanceof Error` is unreliable.
function reasonOf(error: unknown): string {
  const message = (error as { message?: unknown } | null)?.message;
  return typeof message === 'string' ? message : String(error);
}
