import { closeSync, readlinkSync } from 'node:fs';
import { hostPathOf } from '../../../domain/path-policy.js';
import type { RootPath } from '../../../domain/roots.js';

/** Shallower walks are cheap enough from the root. */
const MIN_DEPTH = 8;
const MAX_ENTRIES = 16;
/** Kept only while a run of calls goes on (a copy, a search); then the fds are given back. */
const IDLE_MS = 1000;

/** A cached directory lent to one walk; `release` once, when the walk is done with it. */
export interface Lease {
  readonly fd: number;
  readonly path: RootPath;
  readonly release: () => void;
}

interface Entry {
  readonly fd: number;
  readonly path: RootPath;
  /** Where the kernel must say the directory is for it to be used again. */
  readonly hostPath: string;
  users: number;
  lastUsed: number;
  evicted: boolean;
}

/**
 * Deep directories the walker opened and verified, kept open for a moment so that the next
 * walk below one of them starts there instead of at the root. A tree walk or a copy asks for
 * each level in turn, so without this every call re-walks from the root: depth^2 opens.
 *
 * Security: an entry is lent only after readlink of its fd says the directory is still at
 * exactly its path in the root, that is, it is the directory a walk from the root would
 * reach now; it was itself opened O_NOFOLLOW relative to its parent. The walk then goes on
 * from it as from any verified parent. A directory moved, replaced or deleted meanwhile
 * fails the check and is dropped, and the walk starts from the root as before.
 */
export class DirectoryCache {
  private entries: Entry[] = [];
  private sweep: NodeJS.Timeout | undefined;

  /** The deepest cached directory at or above `target` that is still where it was, or null. */
  lease(target: RootPath): Lease | null {
    for (;;) {
      const entry = this.deepestAbove(target);
      if (entry === undefined) return null;
      entry.users += 1;
      if (kernelPathOf(entry.fd) === entry.hostPath) {
        return { fd: entry.fd, path: { root: target.root, segments: entry.path.segments }, release: () => this.release(entry) };
      }
      this.evict(entry);
      this.release(entry);
    }
  }

  /**
   * Takes over a directory a walk has just opened and verified and lends it back, or returns
   * null (the caller keeps the handle) when it is too shallow to be worth keeping.
   */
  keep(fd: number, path: RootPath): Lease | null {
    if (path.segments.length < MIN_DEPTH) return null;
    for (const entry of this.entries) {
      if (sameRoot(entry.path, path) && entry.path.segments.length === path.segments.length && isPrefix(entry.path, path)) this.evict(entry);
    }
    if (this.entries.length >= MAX_ENTRIES) {
      this.evict(this.entries.reduce((oldest, entry) => (entry.lastUsed < oldest.lastUsed ? entry : oldest)));
    }
    const entry: Entry = { fd, path, hostPath: hostPathOf(path), users: 1, lastUsed: Date.now(), evicted: false };
    this.entries.push(entry);
    this.scheduleSweep();
    return { fd, path, release: () => this.release(entry) };
  }

  private deepestAbove(target: RootPath): Entry | undefined {
    let best: Entry | undefined;
    for (const entry of this.entries) {
      if (best !== undefined && entry.path.segments.length <= best.path.segments.length) continue;
      if (sameRoot(entry.path, target) && isPrefix(entry.path, target)) best = entry;
    }
    return best;
  }

  private release(entry: Entry): void {
    entry.users -= 1;
    entry.lastUsed = Date.now();
    if (entry.evicted && entry.users === 0) closeQuietly(entry.fd);
  }

  /** Forgets an entry; its fd is closed now, or by the last walk still using it. */
  private evict(entry: Entry): void {
    if (entry.evicted) return;
    entry.evicted = true;
    this.entries = this.entries.filter((other) => other !== entry);
    if (entry.users === 0) closeQuietly(entry.fd);
  }

  private scheduleSweep(): void {
    if (this.sweep !== undefined) return;
    this.sweep = setTimeout(() => {
      this.sweep = undefined;
      const now = Date.now();
      for (const entry of this.entries) if (entry.users === 0 && now - entry.lastUsed >= IDLE_MS) this.evict(entry);
      if (this.entries.length > 0) this.scheduleSweep();
    }, IDLE_MS);
    // Idle fds must not keep the process alive.
    this.sweep.unref();
  }
}

function kernelPathOf(fd: number): string | null {
  try {
    return readlinkSync(`/proc/self/fd/${fd}`);
  } catch {
    return null;
  }
}

function sameRoot(a: RootPath, b: RootPath): boolean {
  return a.root.name === b.root.name && a.root.hostPath === b.root.hostPath;
}

function isPrefix(prefix: RootPath, path: RootPath): boolean {
  if (prefix.segments.length > path.segments.length) return false;
  return prefix.segments.every((segment, index) => path.segments[index] === segment);
}

function closeQuietly(fd: number): void {
  try {
    closeSync(fd);
  } catch {
    // Already closed or gone: nothing to give back.
  }
}
