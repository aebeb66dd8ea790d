import type { EntryStat } from '../ports/file-system.port.js';
import { type FileStamp, sameStamp, type TrigramIndex } from './trigram-index.js';
import type { TrigramQuery } from './trigram-query.js';

/**
 * What an indexed grep does with one file its walk reached:
 * - 'search': read it and verify every line, as a scan does (a candidate, or a file the index cannot
 *   vouch for: not indexed, or its (inode, size, mtime) moved since it was);
 * - 'no-match': the index vouches it holds no line that can match: it counts as searched, unread;
 * - 'binary': the index vouches it is binary: a scan would pass over it, uncounted.
 */
export type IndexVerdict = 'search' | 'no-match' | 'binary';

export function stampOf(stat: Pick<EntryStat, 'size' | 'modifiedAt' | 'inode'>): FileStamp {
  return { size: stat.size, modifiedMs: stat.modifiedAt.getTime(), inode: stat.inode };
}

/**
 * Never stale: the walk itself stamps every file just before the verdict, so a file created a moment
 * ago is not indexed and is read, a deleted one is not reached, and one rewritten, renamed over or
 * swapped for a link has another stamp and is read whether or not its old trigrams matched.
 */
export class IndexedLookup {
  private candidates: ReadonlySet<number> | 'all';
  /** The index's `changes` when the candidates were taken: a file indexed since has an id they cannot hold. */
  private seen: number;
  /** Files read because the index could not vouch for them (new, or moved since indexed). */
  readonly unvouched: string[] = [];

  constructor(
    private readonly index: TrigramIndex,
    private readonly query: TrigramQuery,
  ) {
    this.seen = index.changes;
    this.candidates = index.candidateIds(query);
  }

  /** `path` relative to the root, '/'-separated, as the index keys it. */
  verdict(path: string, stat: Pick<EntryStat, 'size' | 'modifiedAt' | 'inode'>): IndexVerdict {
    const found = this.index.lookup(path);
    if (found === undefined || !sameStamp(found.file.stamp, stampOf(stat))) {
      this.unvouched.push(path);
      return 'search';
    }
    if (found.file.binary) return 'binary';
    if (this.seen !== this.index.changes) {
      // Indexed again (a refresh) or compacted while this search ran: the ids are taken anew.
      this.seen = this.index.changes;
      this.candidates = this.index.candidateIds(this.query);
    }
    return this.candidates === 'all' || this.candidates.has(found.id) ? 'search' : 'no-match';
  }
}
