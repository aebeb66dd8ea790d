import { sameStamp, type FileStamp, type TrigramIndex } from './trigram-index.js';
import type { TrigramQuery } from './trigram-query.js';

/** Which files an indexed search reads, and what the index must learn from it. */
export interface IndexedSearchPlan {
  /** Files to verify line by line with the pattern, sorted. */
  readonly search: readonly string[];
  /** Files whose (inode, size, mtime) moved since they were indexed, or that are new: index them again. */
  readonly reindex: readonly string[];
  /** Indexed or marked files that are gone: drop them from the index. */
  readonly gone: readonly string[];
}

export interface IndexedSearchInput {
  readonly index: TrigramIndex;
  readonly query: TrigramQuery;
  /** Paths the watcher or the change feed marked as changed since the index was written. */
  readonly changed: Iterable<string>;
  /** The file's stamp now; undefined when it is gone or no longer a regular file. */
  readonly stampNow: (path: string) => Promise<FileStamp | undefined>;
}

/**
 * Never stale: every candidate and every changed path is stamped again before a result is built.
 * A file created a moment ago is a changed path, so it is searched; a deleted one stamps undefined,
 * so it is never reported; one rewritten, renamed over or swapped for a link has another stamp, so
 * it is searched whether or not its old trigrams matched. Undefined (scan instead) while the index
 * is incomplete, since a file left out of it could hold a match.
 */
export async function planIndexedSearch(input: IndexedSearchInput): Promise<IndexedSearchPlan | undefined> {
  const { index } = input;
  if (!index.complete) return undefined;
  const candidates = new Set(index.candidates(input.query));
  const looked = new Set([...candidates, ...input.changed]);
  const search: string[] = [];
  const reindex: string[] = [];
  const gone: string[] = [];
  for (const path of [...looked].sort()) {
    const now = await input.stampNow(path);
    if (now === undefined) {
      gone.push(path);
      continue;
    }
    const indexed = index.stampOf(path);
    if (indexed !== undefined && sameStamp(indexed, now)) {
      if (candidates.has(path)) search.push(path);
      continue;
    }
    search.push(path);
    reindex.push(path);
  }
  return { search, reindex, gone };
}
