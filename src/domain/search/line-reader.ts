import type { ReadableFile } from '../ports/file-system.port.js';

const CHUNK_BYTES = 64 * 1024;
/** Text kept of one line; the rest of a longer line is not searched, so a one-line multi-GB file cannot exhaust memory. */
export const MAX_LINE_CHARS = 1024 * 1024;

/**
 * The file's lines without their terminator ('\n', or '\r\n'), read in fixed chunks so a
 * file of any size costs one chunk plus one line of memory. Stops at the size the file had
 * when opened, so a file that keeps growing (a live log) still ends. `head`, the file's first
 * bytes when the caller has read them already (grep's binary sniff), is not read again: for
 * most source files it is the whole file.
 */
export async function* readLines(file: ReadableFile, head?: Uint8Array): AsyncGenerator<string> {
  const decoder = new TextDecoder('utf-8');
  const end = file.stat.size;
  let position = 0;
  let pending = '';
  let overflowing = false;
  while (position < end) {
    const bytes = position === 0 && head ? head.subarray(0, end) : await file.read(position, Math.min(CHUNK_BYTES, end - position));
    if (bytes.length === 0) break;
    position += bytes.length;
    const text = decoder.decode(bytes, { stream: true });
    let start = 0;
    for (let newline = text.indexOf('\n'); newline !== -1; newline = text.indexOf('\n', start)) {
      if (!overflowing) pending += text.slice(start, newline);
      yield withoutCarriageReturn(capped(pending));
      pending = '';
      overflowing = false;
      start = newline + 1;
    }
    if (!overflowing) {
      pending += text.slice(start);
      if (pending.length > MAX_LINE_CHARS) {
        pending = pending.slice(0, MAX_LINE_CHARS);
        overflowing = true;
      }
    }
  }
  if (!overflowing) pending += decoder.decode();
  if (pending !== '') yield withoutCarriageReturn(capped(pending));
}

function capped(line: string): string {
  return line.length > MAX_LINE_CHARS ? line.slice(0, MAX_LINE_CHARS) : line;
}

function withoutCarriageReturn(line: string): string {
  return line.endsWith('\r') ? line.slice(0, -1) : line;
}
