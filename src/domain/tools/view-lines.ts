import type { ContentHasher } from '../ports/content-hasher.port.js';
import type { ReadableFile } from '../ports/file-system.port.js';
import { LossyCheck, streamChunks } from './file-text.js';

/** Lines longer than this many characters (code points) are cut. */
export const MAX_LINE_CHARS = 2000;

/** Enough UTF-16 units for MAX_LINE_CHARS code points plus a trailing '\r'. */
const KEEP_UNITS = MAX_LINE_CHARS * 2 + 1;

export interface TextWindow {
  /** Lines `first` .. `first + lines.length - 1`, without line endings, long ones already cut. */
  readonly lines: readonly string[];
  /** Known when the file was read to its end. */
  readonly totalLines?: number;
  /** sha256 of the whole file, when it was read to its end. */
  readonly sha256?: string;
  /** True when bytes read were not valid UTF-8 and were shown as U+FFFD. */
  readonly lossy: boolean;
}

/**
 * Streams lines `first`..`last` (1-based, inclusive; `last` may be Infinity) out of a text
 * file, one chunk at a time: memory holds a chunk and the lines kept, never the file, and
 * each kept line holds at most KEEP_UNITS. Without `readToEnd` reading stops once `last`
 * is passed, so a range near the top of a huge file reads a chunk or two.
 * '\n' ends a line and a '\r' before it is dropped; a last line without '\n' still counts.
 */
export async function readLineWindow(
  file: ReadableFile,
  first: number,
  last: number,
  readToEnd: boolean,
  hasher: ContentHasher,
): Promise<TextWindow> {
  const decoder = new TextDecoder('utf-8');
  const hash = hasher.create('sha256');
  const lines: string[] = [];
  let lineNumber = 1;
  let kept = '';
  /** UTF-16 units of the current line so far; its code points are counted only once it may be too long. */
  let units = 0;
  /** Code points of the current line, counted once it has more than MAX_LINE_CHARS units. */
  let length = 0;
  let lastUnit = '';
  let lineHasText = false;

  const inWindow = () => lineNumber >= first && lineNumber <= last;
  const take = (text: string, from: number, to: number) => {
    if (to <= from) return;
    lineHasText = true;
    if (!inWindow()) return;
    const piece = text.slice(from, to);
    if (units + piece.length > MAX_LINE_CHARS) {
      // Up to here `kept` holds the whole line (MAX_LINE_CHARS < KEEP_UNITS), so its count is exact.
      if (units <= MAX_LINE_CHARS) length = codePointCount(kept);
      length += codePointCount(piece);
    }
    units += piece.length;
    lastUnit = piece[piece.length - 1];
    if (kept.length < KEEP_UNITS) kept += piece.slice(0, KEEP_UNITS - kept.length);
  };
  const endLine = () => {
    if (inWindow()) lines.push(renderLine(kept, units > MAX_LINE_CHARS ? length : units, lastUnit === '\r'));
    lineNumber += 1;
    kept = '';
    units = 0;
    length = 0;
    lastUnit = '';
    lineHasText = false;
  };
  const consume = (text: string) => {
    let start = 0;
    for (let newline = text.indexOf('\n'); newline !== -1; newline = text.indexOf('\n', start)) {
      take(text, start, newline);
      endLine();
      start = newline + 1;
    }
    take(text, start, text.length);
  };

  const check = new LossyCheck();
  const decode = (chunk?: Uint8Array) => {
    if (chunk) check.bytes(chunk);
    const text = chunk ? decoder.decode(chunk, { stream: true }) : decoder.decode();
    check.text(text);
    return text;
  };
  for await (const chunk of streamChunks(file)) {
    hash.update(chunk);
    consume(decode(chunk));
    if (!readToEnd && lineNumber > last) return { lines, lossy: check.lossy };
  }
  consume(decode());
  if (lineHasText) endLine();
  return { lines, totalLines: lineNumber - 1, sha256: hash.digest(), lossy: check.lossy };
}

/** `length` counts code points, or UTF-16 units when those are at most MAX_LINE_CHARS (then code points are too). */
function renderLine(kept: string, length: number, endsWithCarriageReturn: boolean): string {
  const chars = endsWithCarriageReturn ? length - 1 : length;
  // A line this short fits in `kept` whole, its '\r' included.
  if (chars <= MAX_LINE_CHARS) return endsWithCarriageReturn ? kept.slice(0, -1) : kept;
  return `${firstCodePoints(kept, MAX_LINE_CHARS)}... [truncated, ${chars} chars total]`;
}

function codePointCount(text: string): number {
  let count = 0;
  for (let i = 0; i < text.length; i += 1) {
    const unit = text.charCodeAt(i);
    // A low surrogate completes a pair already counted by its high surrogate.
    if (unit < 0xdc00 || unit > 0xdfff) count += 1;
  }
  return count;
}

function firstCodePoints(text: string, count: number): string {
  let taken = 0;
  let i = 0;
  while (i < text.length && taken < count) {
    const unit = text.charCodeAt(i);
    i += unit >= 0xd800 && unit <= 0xdbff && i + 1 < text.length ? 2 : 1;
    taken += 1;
  }
  return text.slice(0, i);
}
