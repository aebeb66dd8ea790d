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

import { NarrowNumbers, NarrowTimes } from './narrow-numbers.js';

/** An indexed file as fields (inode NaN when none is known), filled in place by FileRecords.into. */
export interface FileRow {
  size: number;
  modifiedMs: number;
  inode: number;
  binary: boolean;
  /** The path's UTF-8 bytes (a view valid until the next row). */
  path: Uint8Array;
}

/** Files per block (as a power of two): 65,536 files, 1.2 MiB of stamps and flags. */
const BLOCK_BITS = 16;
const BLOCK_FILES = 1 << BLOCK_BITS;
const IN_BLOCK = BLOCK_FILES - 1;

/** The records of up to BLOCK_FILES files; the last block doubles up to that size as files come (a small index stays small). */
class Block {
  /** Sizes and inodes (NaN: none known) as NarrowNumbers, mtimes as NarrowTimes. */
  readonly sizes: Uint32Array;
  readonly seconds: Uint32Array;
  readonly millis: Uint16Array;
  readonly inodes: Uint32Array;
  readonly binaries: Uint8Array;
  /** How many posting lists hold each file (what its removal leaves dead). */
  readonly postings: Uint32Array;

  constructor(
    readonly capacity: number,
    from?: Block,
  ) {
    this.sizes = copied(new Uint32Array(capacity), from?.sizes);
    this.seconds = copied(new Uint32Array(capacity), from?.seconds);
    this.millis = copied(new Uint16Array(capacity), from?.millis);
    this.inodes = copied(new Uint32Array(capacity), from?.inodes);
    this.binaries = copied(new Uint8Array(capacity), from?.binaries);
    this.postings = copied(new Uint32Array(capacity), from?.postings);
  }
}

function copied<T extends Uint8Array | Uint16Array | Uint32Array>(into: T, from?: T): T {
  if (from !== undefined) into.set(from);
  return into;
}

/**
 * The indexed files' stamps and flags by id, in typed arrays: 19 bytes a file where an object per file
 * (and per stamp, with its mtime and inode boxed) took over 100. A million small files is the case.
 * They live in blocks of BLOCK_FILES that are never copied once full: arrays grown by copying whole
 * left every old copy freed inside malloc's heap (twice the final size in all), kept as resident memory.
 */
export class FileRecords {
  private readonly blocks: Block[] = [];
  private readonly sizes = new NarrowNumbers();
  private readonly inodes = new NarrowNumbers();
  private readonly times = new NarrowTimes();
  length = 0;

  push(file: IndexedFile, postings: number): void {
    const id = this.length;
    const last = this.blocks.length - 1;
    if (id >> BLOCK_BITS > last) this.blocks.push(new Block(1024));
    else if ((id & IN_BLOCK) === this.blocks[last]!.capacity) this.blocks[last] = new Block(this.blocks[last]!.capacity * 2, this.blocks[last]);
    const block = this.blocks[id >> BLOCK_BITS]!;
    const at = id & IN_BLOCK;
    this.sizes.put(block.sizes, at, id, file.stamp.size);
    this.times.put(block.seconds, block.millis, at, id, file.stamp.modifiedMs);
    this.inodes.put(block.inodes, at, id, file.stamp.inode ?? Number.NaN);
    block.binaries[at] = file.binary ? 1 : 0;
    block.postings[at] = postings;
    this.length += 1;
  }

  /** The file of an id below length, as a new object (a caller may keep it). */
  get(id: number): IndexedFile {
    const block = this.blocks[id >> BLOCK_BITS]!;
    const at = id & IN_BLOCK;
    const inode = this.inodes.get(block.inodes, at, id);
    const size = this.sizes.get(block.sizes, at, id);
    const modifiedMs = this.times.get(block.seconds, block.millis, at, id);
    const stamp = Number.isNaN(inode) ? { size, modifiedMs } : { size, modifiedMs, inode };
    return { stamp, binary: block.binaries[at] === 1 };
  }

  /** The file of an id below length into `row` (no object made: an encode asks it of every file). */
  into(id: number, row: FileRow): void {
    const block = this.blocks[id >> BLOCK_BITS]!;
    const at = id & IN_BLOCK;
    row.size = this.sizes.get(block.sizes, at, id);
    row.modifiedMs = this.times.get(block.seconds, block.millis, at, id);
    row.inode = this.inodes.get(block.inodes, at, id);
    row.binary = block.binaries[at] === 1;
  }

  /** The file's size when it is text; 0 for a binary file. */
  textBytesOf(id: number): number {
    const block = this.blocks[id >> BLOCK_BITS]!;
    return block.binaries[id & IN_BLOCK] === 1 ? 0 : this.sizes.get(block.sizes, id & IN_BLOCK, id);
  }

  postingsOf(id: number): number {
    return this.blocks[id >> BLOCK_BITS]!.postings[id & IN_BLOCK]!;
  }

  countPosting(id: number): void {
    const block = this.blocks[id >> BLOCK_BITS]!;
    block.postings[id & IN_BLOCK] = block.postings[id & IN_BLOCK]! + 1;
  }
}
