import { fstatSync } from 'node:fs';
import type { LineSeek } from '../../../domain/ports/file-system.port.js';

/** Reads up to `length` bytes at `position` of the open file into the start of `buffer`; resolves to the count. */
export type ReadAt = (buffer: Uint8Array, length: number, position: number) => Promise<number>;
const NEWLINE = 0x0a;
/** A checkpoint every this many lines: memory is 8 bytes per STRIDE lines, a seek scans < STRIDE lines. */
const STRIDE = 512;
const SCAN_CHUNK_BYTES = 1024 * 1024;
const MAX_FILES = 16;

interface LineIndex {
  /** checkpoints[k] is the byte offset where line k * STRIDE + 1 starts. */
  readonly checkpoints: Float64Array;
  readonly linesTotal: number;
}

/**
 * Where lines start in files read by line window, so reading lines 100000-100049 of a big
 * file again is a seek, not a scan of everything before them.
 *
 * Cache: keyed by dev+ino+size+mtime(ns) of the open descriptor, at most MAX_FILES entries
 * (least recently used goes). A file changed in any way the kernel reports (size, mtime) gets
 * a new key, so a stale index is never used; nothing expires by time. Security: the index is
 * only ever built from and applied to the descriptor the walker verified, and a wrong offset
 * could only pick other lines of that same file (reads stay bounded by its size).
 */
export class LineIndexCache {
  private readonly entries = new Map<string, LineIndex>();

  async seek(fd: number, line: number, readAt: ReadAt): Promise<LineSeek> {
    const stats = fstatSync(fd, { bigint: true });
    const key = `${stats.dev}:${stats.ino}:${stats.size}:${stats.mtimeNs}`;
    let index = this.entries.get(key);
    if (index) this.entries.delete(key);
    else index = await buildIndex(readAt, Number(stats.size));
    this.entries.set(key, index);
    if (this.entries.size > MAX_FILES) this.entries.delete(this.entries.keys().next().value as string);
    const checkpoint = Math.min(Math.floor((Math.max(line, 1) - 1) / STRIDE), index.checkpoints.length - 1);
    return { line: checkpoint * STRIDE + 1, position: index.checkpoints[checkpoint], linesTotal: index.linesTotal };
  }
}

/** One pass over the file in large chunks through one reused buffer, counting newlines. */
async function buildIndex(readAt: ReadAt, size: number): Promise<LineIndex> {
  const checkpoints: number[] = [0];
  const buffer = Buffer.allocUnsafe(Math.min(SCAN_CHUNK_BYTES, Math.max(size, 1)));
  let position = 0;
  let newlines = 0;
  let lastByte = -1;
  while (position < size) {
    const bytesRead = await readAt(buffer, Math.min(buffer.length, size - position), position);
    if (bytesRead === 0) break;
    for (let at = buffer.indexOf(NEWLINE, 0); at !== -1 && at < bytesRead; at = buffer.indexOf(NEWLINE, at + 1)) {
      newlines += 1;
      if (newlines % STRIDE === 0) checkpoints.push(position + at + 1);
    }
    lastByte = buffer[bytesRead - 1];
    position += bytesRead;
  }
  const linesTotal = position > 0 && lastByte !== NEWLINE ? newlines + 1 : newlines;
  return { checkpoints: Float64Array.from(checkpoints), linesTotal };
}
