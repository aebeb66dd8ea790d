import type { Root, RootPath } from '../roots.js';

export type WatchedKind = 'file' | 'directory';

export interface Watch {
  close(): void;
}

/** What a tree watch tells (see FileWatcher.watchTree). */
export interface TreeChangeListener {
  /** `path` (root-relative, '/'-separated) was added, removed, renamed, replaced, or its content or attributes changed. */
  changed(path: string): void;
  /** The watch can no longer vouch for the tree (an error, an event without a name, a watch lost): look again in full. */
  unknown(): void;
}

/**
 * Tells when something at a path changes, for subscriptions (what they need, not inotify's API).
 * `onChange` runs when the entry is removed, replaced or renamed; for a file also when its content
 * changes, for a directory when an entry is added, removed or renamed in it. Confined like every
 * lookup: the directories watched are reached by the same walk as a read (NOT_FOUND, ACCESS_DENIED),
 * and nothing outside the root is ever reported.
 */
export interface FileWatcher {
  watch(path: RootPath, kind: WatchedKind, onChange: () => void): Promise<Watch>;
  /**
   * Issue 31.2: watches the root-relative `directories` (each non-recursively) and tells the path of
   * every entry added, removed, renamed or changed in one of them. A directory removed or replaced
   * (a link swapped in) is told and its own watch, and those below it, closed: nothing of what is
   * there now is watched until the caller watches again. A directory that cannot be watched (gone,
   * reached through a link leading outside, the OS limit) makes the watch tell unknown(), as does
   * any error later. Confined as watch(): each directory is reached by the same walk as a read.
   */
  watchTree(root: Root, directories: readonly string[], listener: TreeChangeListener): Promise<Watch>;
  /** Watches open now (each watch() not yet closed). */
  readonly size: number;
}
