import { trigramsOf, type TrigramQuery } from './trigram-query.js';

/** What says a file is still the one indexed: any difference means it must be read again. */
export interface FileStamp {
  readonly size: number;
  readonly modifiedMs: number;
  readonly inode?: number;
}

export function sameStamp(left: FileStamp, right: FileStamp): boolean {
  return left.size === right.size && left.modifiedMs === right.modifiedMs && left.inode === right.inode;
}

/** Estimated bytes of one posting and of one trigram's key, as a compact on-disk form would hold them. */
const POSTING_BYTES = 4;
const TRIGRAM_KEY_BYTES = 8;

interface IndexedFile {
  readonly id: number;
  readonly stamp: FileStamp;
  readonly trigrams: readonly string[];
  readonly cost: number;
}

/**
 * One root's file list and trigram posting lists (path -> trigrams, trigram -> files), in memory.
 * Bounded: a file that would take the index past maxBytes is not added and the index says it is
 * incomplete, so a caller searches by scan rather than trust a list with holes in it.
 * Cache: keyed by root-relative path, checked against the file's (inode, size, mtime) before use.
 */
export class TrigramIndex {
  private readonly files = new Map<string, IndexedFile>();
  private readonly pathsById = new Map<number, string>();
  private readonly postings = new Map<string, Set<number>>();
  private nextId = 0;
  private estimatedBytes = 0;
  private overBudget = false;

  constructor(private readonly maxBytes: number) {}

  /** True while every file offered was indexed: candidates() then misses no indexed file. */
  get complete(): boolean {
    return !this.overBudget;
  }

  get bytes(): number {
    return this.estimatedBytes;
  }

  get size(): number {
    return this.files.size;
  }

  paths(): string[] {
    return [...this.files.keys()];
  }

  stampOf(path: string): FileStamp | undefined {
    return this.files.get(path)?.stamp;
  }

  /** Every indexed file with its stamp and trigrams, for a codec to write. */
  *entries(): Iterable<{ path: string; stamp: FileStamp; trigrams: readonly string[] }> {
    for (const [path, file] of this.files) yield { path, stamp: file.stamp, trigrams: file.trigrams };
  }

  /** Indexes (or re-indexes) a file's text; false, and the index incomplete, when it does not fit. */
  add(path: string, stamp: FileStamp, text: string): boolean {
    return this.addTrigrams(path, stamp, [...trigramsOf(text)]);
  }

  /** add() for trigrams already extracted (an index read back from disk). */
  addTrigrams(path: string, stamp: FileStamp, trigrams: readonly string[]): boolean {
    this.remove(path);
    const cost = this.costOf(path, trigrams);
    if (this.estimatedBytes + cost > this.maxBytes) {
      this.overBudget = true;
      return false;
    }
    const id = this.nextId;
    this.nextId += 1;
    for (const trigram of trigrams) {
      let files = this.postings.get(trigram);
      if (!files) {
        files = new Set();
        this.postings.set(trigram, files);
      }
      files.add(id);
    }
    this.files.set(path, { id, stamp, trigrams, cost });
    this.pathsById.set(id, path);
    this.estimatedBytes += cost;
    return true;
  }

  remove(path: string): void {
    const file = this.files.get(path);
    if (!file) return;
    for (const trigram of file.trigrams) {
      const files = this.postings.get(trigram)!;
      files.delete(file.id);
      if (files.size === 0) this.postings.delete(trigram);
    }
    this.estimatedBytes -= file.cost;
    this.files.delete(path);
    this.pathsById.delete(file.id);
  }

  /** Indexed files whose trigrams satisfy the query (as they were when indexed), from the posting lists. */
  candidates(query: TrigramQuery): string[] {
    const ids = this.matching(query);
    if (ids === 'all') return this.paths();
    return [...ids].map((id) => this.pathsById.get(id)!);
  }

  private matching(query: TrigramQuery): ReadonlySet<number> | 'all' {
    switch (query.op) {
      case 'all':
        return 'all';
      case 'trigram':
        return this.postings.get(query.trigram) ?? new Set();
      case 'or': {
        const union = new Set<number>();
        for (const sub of query.subs) {
          const ids = this.matching(sub);
          if (ids === 'all') return 'all';
          for (const id of ids) union.add(id);
        }
        return union;
      }
      case 'and': {
        const parts = query.subs.map((sub) => this.matching(sub)).filter((ids) => ids !== 'all');
        if (parts.length === 0) return 'all';
        parts.sort((a, b) => a.size - b.size);
        const [smallest, ...rest] = parts;
        return new Set([...smallest!].filter((id) => rest.every((ids) => ids.has(id))));
      }
    }
  }

  private costOf(path: string, trigrams: readonly string[]): number {
    let newKeys = 0;
    for (const trigram of trigrams) if (!this.postings.has(trigram)) newKeys += 1;
    return path.length * 2 + trigrams.length * POSTING_BYTES + newKeys * TRIGRAM_KEY_BYTES;
  }
}
