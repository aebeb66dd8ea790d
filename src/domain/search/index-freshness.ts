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

/** vouch(): the index has no entry for the file at this stamp (not indexed, or moved since). */
export const NOT_VOUCHED = -1;
/** vouch(): the index holds the file, binary (a scan passes over it). */
export const VOUCHED_BINARY = -3;

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
    return this.verdictOf(this.vouch(path, stat.size, stat.modifiedAt.getTime(), stat.inode), path);
  }

  /** The index and its `changes` now: a vouch() taken under them holds until either moves. */
  epoch(): [index: object, changes: number] {
    return [this.index, this.index.changes];
  }

  /**
   * What the index says of the file at `path` with this stamp, as a number a caller may keep while
   * epoch() is unchanged and the stamp is the same: its id (>= 0), VOUCHED_BINARY, or NOT_VOUCHED.
   */
  vouch(path: string, size: number, modifiedMs: number, inode: number): number {
    const found = this.index.lookup(path);
    if (found === undefined || !sameStamp(found.file.stamp, { size, modifiedMs, inode })) return NOT_VOUCHED;
    return found.file.binary ? VOUCHED_BINARY : found.id;
  }

  /** Whether a vouch() holds the file has no line that can match: counted as searched, unread. */
  vouchedEmpty(vouched: number): boolean {
    return vouched >= 0 && !this.isCandidate(vouched);
  }

  /** The verdict on a vouch() of the file at `path` (recorded as unvouched when it was not vouched for). */
  verdictOf(vouched: number, path: string): IndexVerdict {
    if (vouched === NOT_VOUCHED) {
      this.unvouched.push(path);
      return 'search';
    }
    if (vouched === VOUCHED_BINARY) return 'binary';
    return this.isCandidate(vouched) ? 'search' : 'no-match';
  }

  private isCandidate(id: number): boolean {
    if (this.seen !== this.index.changes) {
      // Indexed again (a refresh) or compacted while this search ran: the ids are taken anew.
      this.seen = this.index.changes;
      this.candidates = this.index.candidateIds(this.query);
    }
    return this.candidates === 'all' || this.candidates.has(id);
  }
}
