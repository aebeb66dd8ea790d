import type { ContentHasher, HashAlgorithm } from '../ports/content-hasher.port.js';
import type { ReadableFile } from '../ports/file-system.port.js';
import { throwIfCancelled, type WorkContext } from '../work-context.js';

/** FR-005/FR-016: a NUL byte in this many leading bytes marks a file as binary (the heuristic git and grep use). */
export const BINARY_SNIFF_BYTES = 8 * 1024;

/** NFR-003: files are streamed in chunks no larger than this. */
export const STREAM_CHUNK_BYTES = 32 * 1024;

/** Hashing reads larger chunks through one reused buffer: per-chunk overhead, not the digest, dominated. */
export const HASH_CHUNK_BYTES = 1024 * 1024;

const NEWLINE = 0x0a;
const UNITS = ['B', 'KB', 'MB', 'GB'] as const;

/** 500 -> "500B", 1048576 -> "1MB", 5452595 -> "5.2MB" (one decimal at most, ".0" dropped). */
export function formatSize(bytes: number): string {
  let value = bytes;
  let unit = 0;
  while (value >= 1024 && unit < UNITS.length - 1) {
    value /= 1024;
    unit += 1;
  }
  const rounded = Math.round(value * 10) / 10;
  return `${Number.isInteger(rounded) ? rounded.toFixed(0) : rounded.toFixed(1)}${UNITS[unit]}`;
}

/**
 * "size: 1100000 bytes, limit: 1048576 bytes (1MB)": exact bytes, so a size just over a limit never reads as equal
 * to it (1,100,000 and 1,048,576 bytes both round to "1MB").
 */
export function sizeOverLimit(size: number, limit: number): string {
  return `size: ${size} bytes, limit: ${limit} bytes${limit >= 1024 ? ` (${formatSize(limit)})` : ''}`;
}

/** The one binary test of every tool (read_file, grep, patch_file, view, file_read). */
export function looksBinary(bytes: Uint8Array): boolean {
  return bytes.subarray(0, BINARY_SNIFF_BYTES).includes(0);
}

/** Reads up to `length` bytes from `position`, chunk by chunk; shorter only at end of file. */
export async function readRange(file: ReadableFile, position: number, length: number, work?: WorkContext): Promise<Uint8Array> {
  const parts: Uint8Array[] = [];
  let total = 0;
  while (total < length) {
    throwIfCancelled(work);
    if (total > 0) work?.progress?.(total, length);
    const chunk = await file.read(position + total, Math.min(STREAM_CHUNK_BYTES, length - total));
    if (chunk.length === 0) break;
    parts.push(chunk);
    total += chunk.length;
  }
  return concatBytes(parts, total);
}

/** The file from `position` to its end, one bounded chunk at a time. */
export async function* streamChunks(file: ReadableFile, position = 0, work?: WorkContext): AsyncGenerator<Uint8Array> {
  let offset = position;
  for (;;) {
    throwIfCancelled(work);
    if (offset > position) work?.progress?.(offset - position, Math.max(offset, file.stat.size) - position, 'bytes read');
    const chunk = await file.read(offset, STREAM_CHUNK_BYTES);
    if (chunk.length === 0) return;
    offset += chunk.length;
    yield chunk;
  }
}

/** FR-012: the digest of the whole file, streamed chunk by chunk (HASH_CHUNK_BYTES, not NFR-003's 32 KB), never held whole. */
export async function digestFile(
  hasher: ContentHasher,
  algorithm: HashAlgorithm,
  file: ReadableFile,
  work?: WorkContext,
): Promise<{ digest: string; size: number }> {
  const hash = hasher.create(algorithm);
  const buffer = new Uint8Array(HASH_CHUNK_BYTES);
  let size = 0;
  for (;;) {
    // Cancellation is looked at between chunks: one chunk (1 MiB) is milliseconds of work.
    throwIfCancelled(work);
    work?.progress?.(size, Math.max(size, file.stat.size), 'bytes hashed');
    const chunk = await file.read(size, HASH_CHUNK_BYTES, buffer);
    if (chunk.length === 0) break;
    hash.update(chunk);
    size += chunk.length;
  }
  return { digest: hash.digest(), size };
}

export interface LineWindow {
  /** The requested lines with their original line endings. */
  readonly bytes: Uint8Array;
  readonly linesReturned: number;
  /** Lines in the whole file; a last line without a newline counts. */
  readonly linesTotal: number;
  /** True when the byte budget stopped the window before `limit` lines were taken. */
  readonly budgetExhausted: boolean;
}

/**
 * Lines `first` .. `first + limit - 1` (1-based) of a file, found by streaming it once:
 * memory holds one chunk plus the lines kept, never the whole file. Taking lines stops
 * before the first line that would push the kept bytes past `byteBudget`.
 */
export async function readLineWindow(
  file: ReadableFile,
  first: number,
  limit: number | undefined,
  byteBudget: number,
  work?: WorkContext,
): Promise<LineWindow> {
  const last = limit === undefined ? Number.POSITIVE_INFINITY : first + limit - 1;
  const kept: Uint8Array[] = [];
  let keptBytes = 0;
  let pending: Uint8Array[] = [];
  let pendingBytes = 0;
  let linesReturned = 0;
  let budgetExhausted = false;
  let line = 1;
  let sawBytes = false;
  let endsWithNewline = false;

  // With a seek, scanning starts near `first` and stops after `last`: the adapter knows the total.
  const seek = file.seekLine ? await file.seekLine(first) : undefined;
  if (seek) line = seek.line;

  const wanted = () => !budgetExhausted && line >= first && line <= last;
  const holdPart = (part: Uint8Array) => {
    if (part.length === 0) return;
    pendingBytes += part.length;
    if (keptBytes + pendingBytes > byteBudget) {
      budgetExhausted = true;
      pending = [];
      pendingBytes = 0;
      return;
    }
    // Copied: an adapter may hand out views of a buffer it reuses for the next read.
    pending.push(part.slice());
  };
  const finishLine = () => {
    if (wanted()) {
      kept.push(...pending);
      keptBytes += pendingBytes;
      linesReturned += 1;
    }
    pending = [];
    pendingBytes = 0;
  };

  scan: for await (const chunk of streamChunks(file, seek?.position ?? 0, work)) {
    sawBytes = true;
    let start = 0;
    for (let nl = chunk.indexOf(NEWLINE); nl !== -1; nl = chunk.indexOf(NEWLINE, start)) {
      if (wanted()) holdPart(chunk.subarray(start, nl + 1));
      finishLine();
      line += 1;
      start = nl + 1;
      if (seek && (line > last || budgetExhausted)) break scan;
    }
    if (wanted()) holdPart(chunk.subarray(start));
    endsWithNewline = start === chunk.length;
  }
  if (seek && (line > last || budgetExhausted)) {
    return { bytes: concatBytes(kept, keptBytes), linesReturned, linesTotal: seek.linesTotal, budgetExhausted };
  }
  const unterminatedLastLine = sawBytes && !endsWithNewline;
  if (unterminatedLastLine) finishLine();
  const linesTotal = seek ? seek.linesTotal : unterminatedLastLine ? line : line - 1;
  return { bytes: concatBytes(kept, keptBytes), linesReturned, linesTotal, budgetExhausted };
}

export interface DecodedContent {
  readonly content: string;
  readonly encoding: 'utf-8' | 'base64';
}

/** Text when the bytes are valid UTF-8 of a text file; otherwise base64, so nothing is lost. */
export function decodeContent(bytes: Uint8Array, binary: boolean): DecodedContent {
  // Invalid UTF-8 (or a range cut through a character) gets the lossless form.
  const text = binary ? null : decodeUtf8(bytes);
  return text === null ? { content: toBase64(bytes), encoding: 'base64' } : { content: text, encoding: 'utf-8' };
}

const utf8 = new TextEncoder();

export function encodeUtf8(text: string): Uint8Array {
  return utf8.encode(text);
}

/** The bytes encodeUtf8(text) would give, counted without allocating them (a lone surrogate encodes as U+FFFD, 3 bytes). */
export function utf8Length(text: string): number {
  let bytes = 0;
  for (let index = 0; index < text.length; index += 1) {
    const unit = text.charCodeAt(index);
    if (unit < 0x80) bytes += 1;
    else if (unit < 0x800) bytes += 2;
    else if (unit >= 0xd800 && unit <= 0xdbff && index + 1 < text.length && (text.charCodeAt(index + 1) & 0xfc00) === 0xdc00) {
      bytes += 4;
      index += 1;
    } else bytes += 3;
  }
  return bytes;
}

/** Strict UTF-8 (a BOM is kept as U+FEFF so a rewrite keeps it); null when the bytes are not UTF-8 text. */
export function decodeUtf8(bytes: Uint8Array): string | null {
  try {
    return new TextDecoder('utf-8', { fatal: true, ignoreBOM: true }).decode(bytes);
  } catch {
    return null;
  }
}

/**
 * Whether a text file (no NUL in its first 8 KB) holds bytes that are not UTF-8, which view and file_read
 * can only show as U+FFFD. Streamed: memory holds one chunk.
 */
export async function holdsUndecodableText(file: ReadableFile): Promise<boolean> {
  const decoder = new TextDecoder('utf-8', { fatal: true });
  let first = true;
  try {
    for await (const chunk of streamChunks(file)) {
      if (first && looksBinary(chunk)) return false;
      first = false;
      decoder.decode(chunk, { stream: true });
    }
    decoder.decode();
    return false;
  } catch {
    return true;
  }
}

/** The note a lossily decoded text carries, so the model does not write U+FFFD back over the real bytes. */
export function lossyNote(display: string): string {
  return `[lossy: ${display} is not valid UTF-8; its undecodable bytes are shown as U+FFFD. Use read_file for the exact bytes (base64); writing this text back would replace them]`;
}

/**
 * Counts how a stream of chunks decodes: a lenient decoder turns every undecodable byte sequence into
 * U+FFFD, and a real U+FFFD in the file is the bytes EF BF BD (EF is a lead byte, never inside another
 * character). More U+FFFD in the text than EF BF BD in the bytes means bytes were lost.
 */
export class LossyCheck {
  private replacementBytes = 0;
  private replacementChars = 0;
  private previous = new Uint8Array(0);

  bytes(chunk: Uint8Array): void {
    const carried = this.previous;
    // A sequence that starts in the last two bytes of earlier chunks ends in this one.
    const edge = [...carried, ...chunk.subarray(0, 2)];
    for (let i = 0; i < carried.length; i += 1) if (isReplacementAt(edge, i)) this.replacementBytes += 1;
    for (let at = chunk.indexOf(0xef); at !== -1 && at + 2 < chunk.length; at = chunk.indexOf(0xef, at + 1)) {
      if (isReplacementAt(chunk, at)) this.replacementBytes += 1;
    }
    this.previous = chunk.length >= 2 ? chunk.slice(-2) : Uint8Array.from(edge.slice(-2));
  }

  text(decoded: string): void {
    if (!decoded.includes('\uFFFD')) return;
    for (let at = decoded.indexOf('\uFFFD'); at !== -1; at = decoded.indexOf('\uFFFD', at + 1)) this.replacementChars += 1;
  }

  get lossy(): boolean {
    return this.replacementChars > this.replacementBytes;
  }
}

function isReplacementAt(bytes: ArrayLike<number>, at: number): boolean {
  return bytes[at] === 0xef && bytes[at + 1] === 0xbf && bytes[at + 2] === 0xbd;
}

export function toBase64(bytes: Uint8Array): string {
  let binary = '';
  const step = 0x8000;
  for (let i = 0; i < bytes.length; i += step) {
    binary += String.fromCharCode(...bytes.subarray(i, i + step));
  }
  return btoa(binary);
}

function concatBytes(parts: readonly Uint8Array[], total: number): Uint8Array {
  if (parts.length === 1) return parts[0];
  const out = new Uint8Array(total);
  let offset = 0;
  for (const part of parts) {
    out.set(part, offset);
    offset += part.length;
  }
  return out;
}
