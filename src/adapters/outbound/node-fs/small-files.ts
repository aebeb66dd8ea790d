import { closeSync, fstatSync, openSync, readSync, type Stats } from 'node:fs';
import { FILE_READ_FLAGS } from './walker.js';

/**
 * Opens `path` (a bare name in the working directory, or a /proc path) when it is a regular file of at
 * most maxBytes; undefined for anything else, with nothing left open.
 *
 * Security: O_NOFOLLOW, so an entry swapped for a link is not opened, and O_NONBLOCK with the fstat
 * check, so a FIFO or device is neither waited on nor read.
 */
export function openSmallRegularFile(path: string, maxBytes: number): { fd: number; stats: Stats } | undefined {
  let fd: number;
  try {
    fd = openSync(path, FILE_READ_FLAGS);
  } catch {
    return undefined;
  }
  try {
    const stats = fstatSync(fd);
    if (stats.isFile() && stats.size <= maxBytes) return { fd, stats };
  } catch {
    // Not judged here: the caller goes on without it.
  }
  closeSync(fd);
  return undefined;
}

/** Fills `contents` from the start of `fd` (fewer bytes only at the end of the file); the bytes read. */
export function readWhole(fd: number, contents: Uint8Array): number {
  let filled = 0;
  while (filled < contents.length) {
    const bytesRead = readSync(fd, contents, filled, contents.length - filled, filled);
    if (bytesRead === 0) break;
    filled += bytesRead;
  }
  return filled;
}
