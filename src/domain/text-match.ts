import { reindent } from './reindent.js';

/**
 * Where an edit's old_str is in a text, for str_replace: an exact occurrence first; failing
 * that, whole lines equal once leading and trailing whitespace (and CR) are ignored. Only
 * these two rules ever place an edit; the similarity search below only describes a failure.
 */

export type MatchKind = 'exact' | 'whitespace_tolerant';

/** One region to replace: UTF-16 offsets into the text, and what goes there. */
export interface Span {
  readonly at: number;
  readonly length: number;
  readonly replacement: string;
}

export type Located =
  | { readonly found: 'spans'; readonly kind: MatchKind; readonly spans: readonly Span[] }
  /** nearest: 'too_large' when looking for it would compare more than NEAREST_MAX_CHARS characters. */
  | { readonly found: 'none'; readonly nearest?: NearestRegion | 'too_large' }
  /** Not exact, and the file's lines are more than the whitespace-tolerant search has left this call (TolerantBudget). */
  | { readonly found: 'too_many_lines'; readonly lines: number }
  /** Several regions where one was required: how many, and the first lines (1-based) of the first few. */
  | { readonly found: 'several'; readonly kind: MatchKind; readonly count: number; readonly lines: readonly number[] };

/** The part of the text most like old_str, for a NO_MATCH that shows where to look. */
export interface NearestRegion {
  readonly firstLine: number;
  readonly lastLine: number;
  /** Mean per-line similarity, 0..1 (Dice coefficient of character bigrams). */
  readonly similarity: number;
  readonly lines: readonly string[];
}

export interface EditRequest {
  readonly oldStr: string;
  readonly newStr: string;
  readonly replaceAll: boolean;
}

/** Regions whose lines a MULTIPLE_MATCHES names at most. */
export const SEVERAL_NAMED = 20;
/** Lines shown at most in a NO_MATCH. */
export const NEAREST_SHOWN_LINES = 10;
/** Below this mean similarity a region is not worth showing. */
const NEAREST_MIN_SIMILARITY = 0.5;
/**
 * Bounds on the search for the nearest region, so a NO_MATCH on a huge file stays cheap: file lines
 * looked at, line pairs compared (about 0.3 s at both bounds on an idle core), and (issue 33) the
 * characters those comparisons go through, since a pair costs the two lines' lengths: a 400 KB one-line
 * old_str against a 150 KB file took 26.5 s under the pair bound alone.
 */
const NEAREST_MAX_LINES = 50_000;
const NEAREST_MAX_COMPARISONS = 500_000;
export const NEAREST_MAX_CHARS = 20_000_000;

/**
 * Security (issue 33): file lines the whitespace-tolerant search may go through in one call, over all its
 * edits, which run on the event loop one after the other: about 0.1 s (1M lines took 0.7-1.2 s an edit).
 */
export const TOLERANT_MAX_LINES_PER_CALL = 100_000;

/** What is left of a call's TOLERANT_MAX_LINES_PER_CALL; locate() takes from it. */
export interface TolerantBudget {
  remainingLines: number;
}

/**
 * Finds old_str in `content`. In a CRLF file an old_str typed with '\n' matches as CRLF and
 * new_str's line breaks are written as the file's, so the file keeps its endings.
 */
export function locate(content: string, edit: EditRequest, budget?: TolerantBudget): Located {
  const eol = dominantLineEnding(content);
  const replacement = withLineEnding(edit.newStr, eol);
  const literal = occurrences(content, edit.oldStr);
  const needle = literal.length > 0 ? edit.oldStr : withLineEnding(edit.oldStr, eol);
  const exact = literal.length > 0 ? literal : occurrences(content, needle);
  if (exact.length > 0) {
    if (exact.length > 1 && !edit.replaceAll) return { found: 'several', kind: 'exact', count: exact.length, lines: linesOfOffsets(content, exact.slice(0, SEVERAL_NAMED)) };
    return { found: 'spans', kind: 'exact', spans: exact.map((at) => ({ at, length: needle.length, replacement })) };
  }
  if (budget !== undefined) {
    const count = lineCount(content);
    if (count > budget.remainingLines) return { found: 'too_many_lines', lines: count };
    budget.remainingLines -= count;
  }
  const lines = splitLines(content);
  const wanted = oldLines(edit.oldStr);
  const regions = tolerantRegions(lines, wanted.lines);
  if (regions.length === 0) return { found: 'none', nearest: nearestRegion(lines, wanted.lines) };
  if (regions.length > 1 && !edit.replaceAll) {
    return { found: 'several', kind: 'whitespace_tolerant', count: regions.length, lines: regions.slice(0, SEVERAL_NAMED).map((first) => first + 1) };
  }
  const spans = regions.map((first) => {
    const last = lines[first + wanted.lines.length - 1];
    const end = wanted.endsWithNewline ? last.end + last.eol.length : last.end;
    const matched = lines.slice(first, first + wanted.lines.length).map((line) => line.text);
    const text = reindent(edit.newStr, wanted.lines, matched, () => lines.map((line) => line.text));
    return { at: lines[first].start, length: end - lines[first].start, replacement: withLineEnding(text, eol) };
  });
  return { found: 'spans', kind: 'whitespace_tolerant', spans };
}

/** Applies spans (left to right, not overlapping) by slicing: no `$&` or `$1` expansion. */
export function applySpans(content: string, spans: readonly Span[]): string {
  const parts: string[] = [];
  let from = 0;
  for (const span of spans) {
    parts.push(content.slice(from, span.at), span.replacement);
    from = span.at + span.length;
  }
  parts.push(content.slice(from));
  return parts.join('');
}

export function lineOfOffset(text: string, offset: number): number {
  let line = 1;
  for (let at = text.indexOf('\n'); at !== -1 && at < offset; at = text.indexOf('\n', at + 1)) line += 1;
  return line;
}

/** The 1-based lines of ascending offsets, in one pass over the text. */
function linesOfOffsets(text: string, offsets: readonly number[]): number[] {
  const found: number[] = [];
  let line = 1;
  let at = text.indexOf('\n');
  for (const offset of offsets) {
    for (; at !== -1 && at < offset; at = text.indexOf('\n', at + 1)) line += 1;
    found.push(line);
  }
  return found;
}

interface Line {
  /** The line without its end of line. */
  readonly text: string;
  readonly start: number;
  readonly end: number;
  readonly eol: string;
}

function splitLines(content: string): Line[] {
  const lines: Line[] = [];
  let start = 0;
  while (start < content.length) {
    const newline = content.indexOf('\n', start);
    const stop = newline === -1 ? content.length : newline;
    const end = stop > start && content[stop - 1] === '\r' ? stop - 1 : stop;
    lines.push({ text: content.slice(start, end), start, end, eol: content.slice(end, newline === -1 ? stop : stop + 1) });
    start = stop + 1;
  }
  return lines;
}

/** old_str as lines; a final line break ends its last line rather than adding an empty one. */
function oldLines(oldStr: string): { lines: string[]; endsWithNewline: boolean } {
  const lines = oldStr.split(/\r?\n/);
  const endsWithNewline = lines.length > 1 && lines[lines.length - 1] === '';
  if (endsWithNewline) lines.pop();
  return { lines, endsWithNewline };
}

/**
 * First lines (0-based) of the non-overlapping regions whose lines equal `wanted` once trimmed, leftmost first.
 * Security (issue 33): lines are compared as ids with Knuth-Morris-Pratt, so the search is linear in the file's
 * and old_str's lines; window by window it cost file lines x old_str lines (18 s for 3 edits of a 2,000-line
 * old_str on a file of 1M one-character lines, every other call waiting).
 */
function tolerantRegions(lines: readonly Line[], wanted: readonly string[]): number[] {
  const trimmed = wanted.map((line) => line.trim());
  // An old_str of nothing but whitespace would match every blank line: never tolerated.
  if (trimmed.every((line) => line === '')) return [];
  const ids = new Map<string, number>();
  const want = trimmed.map((line) => ids.get(line) ?? ids.set(line, ids.size).size - 1);
  const fallback = kmpFallback(want);
  const found: number[] = [];
  let matched = 0;
  for (let at = 0; at < lines.length; at += 1) {
    const id = ids.get(lines[at].text.trim()) ?? -1;
    while (matched > 0 && want[matched] !== id) matched = fallback[matched - 1];
    if (want[matched] === id) matched += 1;
    if (matched === want.length) {
      found.push(at - matched + 1);
      matched = 0;
    }
  }
  return found;
}

/** KMP's table: for each prefix of `ids`, the length of its longest proper prefix that is also its suffix. */
function kmpFallback(ids: readonly number[]): number[] {
  const fallback = new Array<number>(ids.length).fill(0);
  for (let at = 1, length = 0; at < ids.length; at += 1) {
    while (length > 0 && ids[at] !== ids[length]) length = fallback[length - 1];
    if (ids[at] === ids[length]) length += 1;
    fallback[at] = length;
  }
  return fallback;
}

/** The window of old_str's line count with the highest mean line similarity. */
function nearestRegion(lines: readonly Line[], wanted: readonly string[]): NearestRegion | 'too_large' | undefined {
  if (lines.length === 0) return undefined;
  const size = Math.min(wanted.length, lines.length);
  const starts = lines.length - size + 1;
  if (lines.length > NEAREST_MAX_LINES || starts * size > NEAREST_MAX_COMPARISONS) return 'too_large';
  // Each old_str line meets `starts` file lines, and each file line at most `size` old_str lines.
  const wantedChars = wanted.slice(0, size).reduce((sum, line) => sum + line.length, 0);
  const fileChars = lines.reduce((sum, line) => sum + line.text.length, 0);
  if (starts * wantedChars + size * fileChars > NEAREST_MAX_CHARS) return 'too_large';
  const want = wanted.slice(0, size).map((line) => bigrams(line.trim()));
  // Each file line is compared with each old_str line at most once over all windows: its bigrams are made once.
  const have = lines.map((line) => bigrams(line.text.trim()));
  let best = { first: 0, score: -1 };
  for (let first = 0; first < starts; first += 1) {
    let score = 0;
    for (let i = 0; i < size; i += 1) score += dice(want[i], have[first + i]);
    if (score > best.score) best = { first, score };
  }
  const similarity = best.score / wanted.length;
  if (similarity < NEAREST_MIN_SIMILARITY) return undefined;
  const shown = lines.slice(best.first, best.first + Math.min(size, NEAREST_SHOWN_LINES)).map((line) => line.text);
  return { firstLine: best.first + 1, lastLine: best.first + size, similarity, lines: shown };
}

/** The character bigrams of a line as sorted codes (a one-character line is its own bigram, so "}" matches "}"). */
function bigrams(text: string): Int32Array {
  if (text.length === 1) return Int32Array.of(text.charCodeAt(0));
  const codes = new Int32Array(Math.max(0, text.length - 1));
  for (let i = 0; i + 1 < text.length; i += 1) codes[i] = (text.charCodeAt(i) << 16) | text.charCodeAt(i + 1);
  return codes.sort();
}

/** Sørensen–Dice coefficient of two bigram multisets: twice the shared count over the total. */
function dice(a: Int32Array, b: Int32Array): number {
  const total = a.length + b.length;
  if (total === 0) return 1;
  let shared = 0;
  for (let i = 0, j = 0; i < a.length && j < b.length; ) {
    if (a[i] === b[j]) {
      shared += 1;
      i += 1;
      j += 1;
    } else if (a[i] < b[j]) i += 1;
    else j += 1;
  }
  return (2 * shared) / total;
}

function occurrences(text: string, needle: string): number[] {
  const found: number[] = [];
  for (let at = text.indexOf(needle); at !== -1; at = text.indexOf(needle, at + needle.length)) found.push(at);
  return found;
}

export function dominantLineEnding(text: string): '\r\n' | '\n' {
  let crlf = 0;
  let lf = 0;
  // Counted in place: splitting a file of 1M lines made 2M strings on every edit.
  for (let at = text.indexOf('\n'); at !== -1; at = text.indexOf('\n', at + 1)) {
    lf += 1;
    if (at > 0 && text.charCodeAt(at - 1) === 13) crlf += 1;
  }
  return crlf > 0 && crlf >= lf - crlf ? '\r\n' : '\n';
}

/** The lines splitLines makes of `text`, counted without making them. */
function lineCount(text: string): number {
  let count = text.length > 0 && !text.endsWith('\n') ? 1 : 0;
  for (let at = text.indexOf('\n'); at !== -1; at = text.indexOf('\n', at + 1)) count += 1;
  return count;
}

function withLineEnding(text: string, eol: '\r\n' | '\n'): string {
  return eol === '\r\n' ? text.replace(/\r?\n/g, '\r\n') : text.replace(/\r\n/g, '\n');
}
