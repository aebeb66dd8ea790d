import { type FileRow, type FileStamp, FileRecords, type IndexedFile } from './file-records.js';
import { PathTable } from './path-table.js';
import { PostingLists } from './posting-lists.js';
import { giveWay, runAtOnce, type Steps } from './steps.js';
import { keysOfTrigram, TrigramExtractor } from './trigram-keys.js';
import type { TrigramQuery } from './trigram-query.js';

export type { FileStamp, IndexedFile } from './file-records.js';

export function sameStamp(left: FileStamp, right: FileStamp): boolean {
  return left.size === right.size && left.modifiedMs === right.modifiedMs && left.inode === right.inode;
}

/** Bytes one file costs besides its postings: its path, stamp and flags, as the codec writes them. */
const FILE_BYTES = 24;

/**
 * One root's file list and trigram posting lists (key -> file ids), in memory. Ids only grow: a file
 * indexed again gets a new id and its old one is dead, left out of every answer, until compact()
 * rewrites the lists without the dead. Bounded: a file that would take the index past maxBytes is
 * not added and the index says it is incomplete (a search then reads every file it does not vouch for).
 * Cache: keyed by root-relative path, checked against the file's (inode, size, mtime) before use.
 */
export class TrigramIndex {
  private table = new PathTable();
  private files = new FileRecords();
  private lists = new PostingLists();
  private readonly extractor = new TrigramExtractor();
  private deadPostings = 0;
  private overBudget = false;
  /** Bumped by every add, removal and compaction: ids a lookup took before may mean other files now. */
  changes = 0;

  constructor(readonly maxBytes: number) {}

  /** True while every file offered was indexed. */
  get complete(): boolean {
    return !this.overBudget;
  }

  get bytes(): number {
    return this.lists.bytes + this.table.bytes + this.table.size * FILE_BYTES;
  }

  get size(): number {
    return this.table.size;
  }

  get keyCount(): number {
    return this.lists.keyCount;
  }

  paths(): string[] {
    const paths: string[] = [];
    for (let id = 0; id < this.table.length; id += 1) {
      const path = this.table.pathOf(id);
      if (path !== undefined) paths.push(path);
    }
    return paths;
  }

  /** The text the index was built from: the bytes of its live files, binary ones left out (no path made). */
  textBytes(): number {
    let total = 0;
    for (let id = 0; id < this.files.length; id += 1) if (this.table.isLive(id)) total += this.files.textBytesOf(id);
    return total;
  }

  stampOf(path: string): FileStamp | undefined {
    return this.fileAt(path)?.stamp;
  }

  fileAt(path: string): IndexedFile | undefined {
    return this.lookup(path)?.file;
  }

  lookup(path: string): { id: number; file: IndexedFile } | undefined {
    const id = this.table.idOf(path);
    return id === undefined ? undefined : { id, file: this.files.get(id) };
  }

  /** Indexes (or re-indexes) a file's bytes (a string as UTF-8); false, and the index incomplete, when it does not fit. */
  add(path: string, stamp: FileStamp, contents: Uint8Array | string, binary = false): boolean {
    const bytes = typeof contents === 'string' ? new TextEncoder().encode(contents) : contents;
    return this.addKeys(path, { stamp, binary }, binary ? new Uint32Array(0) : this.extractor.keysOf(bytes));
  }

  /** add() for keys already extracted (an index read back from disk). */
  addKeys(path: string, file: IndexedFile, keys: ArrayLike<number>): boolean {
    this.remove(path);
    this.changes += 1;
    // What the file may add, at most: each posting a key not seen before (its fields and first slice),
    // its path and the path table's growth, its stamp. A bound, so the index never passes maxBytes.
    if (this.bytes + keys.length * PostingLists.NEW_KEY_BYTES + this.table.costOfAdd(path) + FILE_BYTES > this.maxBytes) {
      this.overBudget = true;
      return false;
    }
    const id = this.table.add(path);
    for (let i = 0; i < keys.length; i += 1) this.lists.add(keys[i]!, id);
    this.files.push(file, keys.length);
    return true;
  }

  remove(path: string): void {
    const id = this.table.idOf(path);
    if (id === undefined) return;
    this.changes += 1;
    this.table.remove(id);
    this.deadPostings += this.files.postingsOf(id);
    if (this.deadPostings > 4096 && this.deadPostings * 2 > this.lists.postings) this.compact();
  }

  /** Seals the lists' recent ids into compact blocks (a build's end; see PostingLists). */
  seal(): void {
    this.lists.seal();
  }

  /** Rewrites the posting lists without dead ids, renumbering the live files. */
  compact(): void {
    runAtOnce(this.compactSteps(Infinity));
  }

  /**
   * compact in steps (see steps.ts), giving way after about `step` postings: the new lists are built aside and
   * put in place at the end in one go, so searches in between read the old ones whole. The caller holds
   * back every other change of the index until it returns (IndexPersistence.save).
   */
  *compactSteps(step: number): Steps<void> {
    const renumbered = new Int32Array(this.files.length).fill(-1);
    const files = new FileRecords();
    const table = new PathTable();
    for (let id = 0; id < this.table.length; id += 1) {
      const path = this.table.pathOf(id);
      if (path === undefined) continue;
      renumbered[id] = table.add(path);
      files.push(this.files.get(id), this.files.postingsOf(id));
    }
    const lists = new PostingLists();
    let work = 0;
    for (const { key, ids } of this.lists.entries()) {
      if ((work += 1 + ids.length) >= step) work = yield* giveWay();
      for (const id of ids) if (renumbered[id]! >= 0) lists.add(key, renumbered[id]!);
    }
    lists.seal();
    this.changes += 1;
    Object.assign(this, { files, table, lists, deadPostings: 0 });
  }

  /** The ids of candidates(), 'all' when the query requires nothing (dead ids may be among them). */
  candidateIds(query: TrigramQuery): ReadonlySet<number> | 'all' {
    const ids = this.matching(query);
    return ids === 'all' ? 'all' : new Set(ids);
  }

  /** Live indexed files whose trigrams satisfy the query (as they were when indexed), in id order. */
  candidates(query: TrigramQuery): string[] {
    const ids = this.matching(query);
    if (ids === 'all') return this.paths();
    const paths: string[] = [];
    for (const id of ids) {
      const path = this.table.pathOf(id);
      if (path !== undefined) paths.push(path);
    }
    return paths;
  }

  /** The keys and files of the live index, for the codec: ids renumbered densely first; both streamed. */
  snapshot(): { files: Iterable<{ path: string; file: IndexedFile }>; lists: Iterable<{ key: number; ids: Int32Array }> } {
    return runAtOnce(this.snapshotSteps(Infinity));
  }

  /** snapshot in steps: a compaction first when ids died (see compactSteps). */
  *snapshotSteps(step: number): Steps<{ files: Iterable<{ path: string; file: IndexedFile }>; lists: Iterable<{ key: number; ids: Int32Array }> }> {
    if (this.deadPostings > 0 || this.table.size < this.files.length) yield* this.compactSteps(step);
    return { files: this.liveFiles(), lists: this.lists.entries() };
  }

  /**
   * The live files in id order as one row filled in place (valid until the next), with the path as
   * UTF-8 bytes: no string or object per file (an encode of a million files made three of each).
   * Ids must be dense (after snapshotSteps).
   */
  *fileRows(): Iterable<FileRow> {
    let buffer: Uint8Array = new Uint8Array(1024);
    const row: FileRow = { size: 0, modifiedMs: 0, inode: Number.NaN, binary: false, path: buffer };
    for (let id = 0; id < this.files.length; id += 1) {
      const path = this.table.pathBytesOf(id, buffer)!;
      if (path.buffer !== buffer.buffer) buffer = new Uint8Array(path.buffer);
      this.files.into(id, row);
      row.path = path;
      yield row;
    }
  }

  private *liveFiles(): Iterable<{ path: string; file: IndexedFile }> {
    for (let id = 0; id < this.files.length; id += 1) yield { path: this.table.pathOf(id)!, file: this.files.get(id) };
  }

  /** An index read back whole: the files in id order, then each key's ids. */
  static restore(maxBytes: number, files: Iterable<{ path: string; file: IndexedFile }>, lists: Iterable<{ key: number; ids: ArrayLike<number> }>): TrigramIndex | undefined {
    return runAtOnce(TrigramIndex.restoreSteps(maxBytes, files, lists, Infinity));
  }

  /** restore in steps (see steps.ts), giving way after about `step` files and postings. */
  static *restoreSteps(
    maxBytes: number,
    files: Iterable<{ path: string; file: IndexedFile }>,
    lists: Iterable<{ key: number; ids: ArrayLike<number> }>,
    step: number,
  ): Steps<TrigramIndex | undefined> {
    const index = new TrigramIndex(maxBytes);
    let work = 0;
    for (const { path, file } of files) {
      if ((work += 1) >= step) work = yield* giveWay();
      if (index.table.idOf(path) !== undefined) return undefined;
      index.table.add(path);
      index.files.push(file, 0);
    }
    for (const { key, ids } of lists) {
      if ((work += 1 + ids.length) >= step) work = yield* giveWay();
      let previous = -1;
      for (let i = 0; i < ids.length; i += 1) {
        const id = ids[i]!;
        if (id <= previous || id >= index.files.length) return undefined;
        index.files.countPosting(id);
        previous = id;
      }
      index.lists.addAll(key, ids);
    }
    index.seal();
    return index.bytes <= maxBytes ? index : undefined;
  }

  private matching(query: TrigramQuery): Int32Array | 'all' {
    switch (query.op) {
      case 'all':
        return 'all';
      case 'trigram': {
        const keys = keysOfTrigram(query.trigram);
        if (keys === undefined || keys.length === 0) return 'all';
        return keys.map((key) => this.lists.ids(key)).reduce(intersect);
      }
      case 'or': {
        let union: Int32Array | undefined;
        for (const sub of query.subs) {
          const ids = this.matching(sub);
          if (ids === 'all') return 'all';
          union = union === undefined ? ids : merge(union, ids);
        }
        return union ?? new Int32Array(0);
      }
      case 'and': {
        const parts = query.subs.map((sub) => this.matching(sub)).filter((ids): ids is Int32Array => ids !== 'all');
        if (parts.length === 0) return 'all';
        return parts.sort((a, b) => a.length - b.length).reduce(intersect);
      }
    }
  }
}

function intersect(left: Int32Array, right: Int32Array): Int32Array {
  const out = new Int32Array(Math.min(left.length, right.length));
  let count = 0;
  for (let i = 0, j = 0; i < left.length && j < right.length; ) {
    if (left[i]! < right[j]!) i += 1;
    else if (left[i]! > right[j]!) j += 1;
    else {
      out[count++] = left[i]!;
      i += 1;
      j += 1;
    }
  }
  return out.subarray(0, count);
}

function merge(left: Int32Array, right: Int32Array): Int32Array {
  const out = new Int32Array(left.length + right.length);
  let count = 0;
  let i = 0;
  let j = 0;
  while (i < left.length || j < right.length) {
    const next = j >= right.length || (i < left.length && left[i]! <= right[j]!) ? left[i++]! : right[j++]!;
    if (count === 0 || out[count - 1] !== next) out[count++] = next;
  }
  return out.subarray(0, count);
}
