/** What says a file is still the one indexed: any difference means it must be read again. */
export interface FileStamp {
  readonly size: number;
  readonly modifiedMs: number;
  readonly inode?: number;
}

/** An indexed file as a search sees it. */
export interface IndexedFile {
  readonly stamp: FileStamp;
  /** grep finds nothing in it (binary): a scan does not count it as searched. */
  readonly binary: boolean;
}

import { copied, NarrowNumbers, StampBlock, Stamps } from './narrow-numbers.js';

/** An indexed file as fields (inode NaN when none is known), filled in place by FileRecords.into. */
export interface FileRow {
  size: number;
  modifiedMs: number;
  inode: number;
  binary: boolean;
  /** The path's UTF-8 bytes (a view valid until the next row). */
  path: Uint8Array;
}

/** Files per block (as a power of two): 65,536 files, 1 MiB of stamps, counts and flags. */
const BLOCK_BITS = 16;
const BLOCK_FILES = 1 << BLOCK_BITS;
const IN_BLOCK = BLOCK_FILES - 1;

/** The records of up to BLOCK_FILES files; the last block doubles up to that size as files come (a small index stays small). */
class Block extends StampBlock {
  /** A bit per file: set when it is binary. */
  readonly binaries: Uint8Array;
  /** How many posting lists hold each file (what its removal leaves dead), in NarrowNumbers slots. */
  readonly postings: Uint16Array;

  constructor(capacity: number, from?: Block) {
    super(capacity, from);
    this.binaries = copied(new Uint8Array(Math.ceil(capacity / 8)), from?.binaries);
    this.postings = copied(new Uint16Array(capacity), from?.postings);
  }

  isBinary(at: number): boolean {
    return (this.binaries[at >> 3]! & (1 << (at & 7))) !== 0;
  }

  setBinary(at: number, binary: boolean): void {
    if (binary) this.binaries[at >> 3] = this.binaries[at >> 3]! | (1 << (at & 7));
    else this.binaries[at >> 3] = this.binaries[at >> 3]! & ~(1 << (at & 7));
  }
}

/**
 * The indexed files' stamps and flags by id, in typed arrays: 16 bytes a file where an object per file
 * (and per stamp, with its mtime and inode boxed) took over 100. A million small files is the case.
 * They live in blocks of BLOCK_FILES that are never copied once full: arrays grown by copying whole
 * left every old copy freed inside malloc's heap (twice the final size in all), kept as resident memory.
 */
export class FileRecords {
  private readonly blocks: Block[] = [];
  private readonly stamps = new Stamps();
  private readonly postings = new NarrowNumbers<Uint16Array>(16);
  length = 0;

  push(file: IndexedFile, postings: number): void {
    const id = this.length;
    const last = this.blocks.length - 1;
    if (id >> BLOCK_BITS > last) this.blocks.push(new Block(1024));
    else if ((id & IN_BLOCK) === this.blocks[last]!.capacity) this.blocks[last] = new Block(this.blocks[last]!.capacity * 2, this.blocks[last]);
    const block = this.blocks[id >> BLOCK_BITS]!;
    const at = id & IN_BLOCK;
    this.stamps.put(block, at, id, file.stamp.size, file.stamp.modifiedMs, file.stamp.inode ?? Number.NaN);
    block.setBinary(at, file.binary);
    this.postings.put(block.postings, at, id, postings);
    this.length += 1;
  }

  /** The file of an id below length, as a new object (a caller may keep it). */
  get(id: number): IndexedFile {
    const block = this.blocks[id >> BLOCK_BITS]!;
    const at = id & IN_BLOCK;
    const inode = this.stamps.inode(block, at, id);
    const size = this.stamps.size(block, at, id);
    const modifiedMs = this.stamps.modifiedMs(block, at, id);
    const stamp = Number.isNaN(inode) ? { size, modifiedMs } : { size, modifiedMs, inode };
    return { stamp, binary: block.isBinary(at) };
  }

  /** The file of an id below length into `row` (no object made: an encode asks it of every file). */
  into(id: number, row: FileRow): void {
    const block = this.blocks[id >> BLOCK_BITS]!;
    const at = id & IN_BLOCK;
    row.size = this.stamps.size(block, at, id);
    row.modifiedMs = this.stamps.modifiedMs(block, at, id);
    row.inode = this.stamps.inode(block, at, id);
    row.binary = block.isBinary(at);
  }

  /** The file's size when it is text; 0 for a binary file. */
  textBytesOf(id: number): number {
    const block = this.blocks[id >> BLOCK_BITS]!;
    return block.isBinary(id & IN_BLOCK) ? 0 : this.stamps.size(block, id & IN_BLOCK, id);
  }

  postingsOf(id: number): number {
    return this.postings.get(this.blocks[id >> BLOCK_BITS]!.postings, id & IN_BLOCK, id);
  }

  countPosting(id: number): void {
    const block = this.blocks[id >> BLOCK_BITS]!;
    this.postings.put(block.postings, id & IN_BLOCK, id, this.postings.get(block.postings, id & IN_BLOCK, id) + 1);
  }
}
