import type { RootPath } from '../roots.js';

export type EntryKind = 'file' | 'directory' | 'symlink' | 'other';

/** Where a symlink leads, judged by PathPolicy's rules (every hop must stay inside the root). */
export interface LinkInfo {
  /** The raw link text as stored on disk (may be a host path: never show it unfiltered). */
  readonly text: string;
  /** inside: resolves to an existing entry in the root; missing: would resolve inside the root but nothing is there; outside: some hop leaves the root; loop: too many hops. */
  readonly resolution: 'inside' | 'missing' | 'outside' | 'loop';
  /** The in-root path the link resolves to (inside and missing only). */
  readonly resolvedPath?: RootPath;
  /** Kind of the final target after following every hop (inside only). */
  readonly targetKind?: EntryKind;
}

export interface EntryStat {
  readonly name: string;
  /** Kind of the entry itself (not followed). */
  readonly kind: EntryKind;
  readonly size: number;
  readonly modifiedAt: Date;
  readonly createdAt?: Date;
  /** Permission bits only (mode & 0o7777). */
  readonly permissions: number;
  readonly uid: number;
  readonly gid: number;
  /**
   * Which file this is on its device: a rename keeps it, a file written anew under the name (or a link
   * swapped in) changes it. With size and mtime it says whether a file is still the one indexed.
   */
  readonly inode: number;
  /** Set when kind === 'symlink' (unless a listing was asked not to describe links). */
  readonly link?: LinkInfo;
}

/** Opaque identity of one version of a file; equal strings mean the same unchanged file. */
export type FileVersion = string;
