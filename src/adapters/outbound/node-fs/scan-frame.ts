import type { Dirent } from 'node:fs';
import type { EntryKind } from '../../../domain/ports/file-system.port.js';
import type { ScannedEntry } from '../../../domain/ports/tree-scan-types.js';
import type { ListedEntry } from './listing-prefetch.js';
import type { PoolRead } from './cold-reads.js';
import type { Dir } from './walker.js';

/** The bookkeeping of a Node tree scan (tree-scan.ts): one frame per directory on its stack. */

/** A child directory to open only when the walk reaches it (the scan already holds as many as it opens ahead). */
export const LATER = -1;
/** Not a directory to enter (not one, too deep, or gone since the listing). */
export const NONE = -2;

/**
 * A selected file of a scan with readContents: it is opened when reported, and its stat then comes
 * from the descriptor (fstat) instead of a separate lstat.
 */
export class ReadWhenReported {
  /** Set when the scan opened it ahead and reads it on the thread pool (a cold disk: see Scan.readAheadOnPool). */
  pool?: PoolRead;
  constructor(readonly relativePath: string) {}
}

export interface Frame {
  /** The open directory, or null when the scan gave it back to bound the fds it holds. */
  dir: Dir | null;
  /** Put before a name to look it up in this directory: '' once it is the working directory, its host path + '/' without /proc. */
  prefix: string;
  /** '' for the start directory. */
  readonly relativePath: string;
  readonly depth: number;
  entries: ListedEntry[];
  /**
   * Entries up to here are prepared: selected, stat'ed and, for a directory to enter, opened, all
   * while this directory is the working directory, so the walk never has to come back into it.
   */
  prepared: number;
  /** Per prepared entry: what it reports (selected), a file to open and read when reported, or undefined. */
  readonly reports: (ScannedEntry | ReadWhenReported | undefined)[];
  /** Per prepared entry: an fd of the child directory opened ahead, LATER or NONE. */
  readonly children: number[];
  /** Entries up to here are reported (and their subtrees walked). */
  next: number;
  /** Entries before this one were considered for a read ahead on the thread pool (readContents, cold disk). */
  readAhead: number;
  /** The directory's device and inode, taken when its fd is given back: a reopen must find the same directory. */
  identity?: { readonly dev: number; readonly ino: number };
}

export function newFrame(dir: Dir, prefix: string, relativePath: string, depth: number): Frame {
  return { dir, prefix, relativePath, depth, entries: [], prepared: 0, reports: [], children: [], next: 0, readAhead: 0 };
}

export function childRelativePath(parent: Frame, name: string): string {
  return parent.relativePath === '' ? name : `${parent.relativePath}/${name}`;
}

/** getcwd, or null when it cannot name the working directory (deleted, or past PATH_MAX). */
export function kernelWorkingDirectory(): string | null {
  try {
    return process.cwd();
  } catch {
    return null;
  }
}

export function direntKind(entry: Dirent): EntryKind {
  if (entry.isFile()) return 'file';
  if (entry.isDirectory()) return 'directory';
  if (entry.isSymbolicLink()) return 'symlink';
  return 'other';
}
