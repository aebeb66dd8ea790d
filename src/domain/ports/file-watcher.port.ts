import type { RootPath } from '../roots.js';

export type WatchedKind = 'file' | 'directory';

export interface Watch {
  close(): void;
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
  /** Watches open now (each watch() not yet closed). */
  readonly size: number;
}
