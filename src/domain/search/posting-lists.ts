import { BitWriter, decodeRice, riceParameter } from './rice-blocks.js';
import { VarintSlices } from './varint-slices.js';

/** Postings per block: a block's bits stay small (a few KiB) and a long list is many blocks. */
const BLOCK_POSTINGS = 4096;
/**
 * The tails' pool is sealed into blocks once it holds this much. At 8 MiB a 1M-file build held 5 MiB
 * more at its peak, for no gain in time (the blocks are as small: a block's k fits its own ids).
 */
const SEAL_BYTES = 4 << 20;
const PAGE_BYTES = 1 << 20;
const NONE = 0xffffffff;

/**
 * Posting lists (trigram key -> ascending file ids) held Rice-coded: each key's list is a chain of
 * sealed blocks (see rice-blocks.ts; 1.5-2.5 bits a posting on a tree of small files, where varints
 * took 9.6), then a tail of recent ids as varints in a pool of slices (VarintSlices) that takes
 * appends cheaply. When the pool passes `sealBytes`, every tail is sealed into a block at the end of
 * its chain and the pool starts empty, so a build holds its lists compact plus one pool.
 * A block: the next block's offset (4 bytes), its count (varint), k (a byte), the gaps' bits.
 */
export class PostingLists {
  private readonly slotOf = new Map<number, number>();
  private keys = new Uint32Array(1024);
  private lastIds = new Int32Array(1024);
  /** The last id of a key's sealed blocks (-1: none): its tail's gaps run on from it. */
  private sealedLasts = new Int32Array(1024);
  private sealedCounts = new Uint32Array(1024);
  private firstBlocks = new Uint32Array(1024).fill(NONE);
  private lastBlocks = new Uint32Array(1024).fill(NONE);
  private slotCount = 0;
  private tails = new VarintSlices();
  private pages: Uint8Array[] = [];
  private pageUsed = PAGE_BYTES;
  private blockBytes = 0;
  private readonly writer = new BitWriter();
  private scratch = new Int32Array(BLOCK_POSTINGS);
  /** Postings held, live or not. */
  postings = 0;
  /** What bytes counts for a key's first posting at most: its fields, its tail's fields and first slice, a varint. */
  static readonly NEW_KEY_BYTES = 24 + VarintSlices.SLOT_BYTES + 5;

  constructor(private readonly sealBytes = SEAL_BYTES) {}

  /** Bytes taken: the blocks, the tails' pool and each key's fixed fields. */
  get bytes(): number {
    return this.blockBytes + this.tails.bytes + this.slotCount * 24;
  }

  get keyCount(): number {
    return this.slotCount;
  }

  /** Appends `id` to the key's list; ids must come in ascending order per key. */
  add(key: number, id: number): void {
    const slot = this.slotOf.get(key) ?? this.newSlot(key);
    this.tails.write(slot, id - this.lastIds[slot]! - 1);
    this.lastIds[slot] = id;
    this.postings += 1;
    if (this.tails.bytes >= this.sealBytes) this.seal(true);
  }

  /** add() of each id in turn (ascending, after the key's last); a long run with no tail before it is sealed at once (a decode). */
  addAll(key: number, ids: ArrayLike<number>): void {
    const slot = this.slotOf.get(key) ?? this.newSlot(key);
    if (ids.length < 64 || this.tails.count(slot) > 0) {
      for (let i = 0; i < ids.length; i += 1) this.add(key, ids[i]!);
      return;
    }
    this.sealRun(slot, ids, ids.length);
    this.lastIds[slot] = ids[ids.length - 1]!;
    this.postings += ids.length;
  }

  /** The key's ids, ascending; empty when the key was never added. Into `buffer` (a view of it) when it is large enough. */
  ids(key: number, buffer?: Int32Array): Int32Array {
    const slot = this.slotOf.get(key);
    if (slot === undefined) return new Int32Array(0);
    const sealed = this.sealedCounts[slot]!;
    const length = sealed + this.tails.count(slot);
    const ids = buffer !== undefined && buffer.length >= length ? buffer.subarray(0, length) : new Int32Array(length);
    let id = -1;
    let count = 0;
    for (let block = this.firstBlocks[slot]!; block !== NONE; ) {
      const page = this.pages[Math.floor(block / PAGE_BYTES)]!;
      let at = block % PAGE_BYTES;
      const next = (page[at]! | (page[at + 1]! << 8) | (page[at + 2]! << 16) | (page[at + 3]! << 24)) >>> 0;
      at += 4;
      let length = 0;
      for (let shift = 0; ; shift += 7) {
        const byte = page[at]!;
        at += 1;
        length += (byte & 0x7f) * 2 ** shift;
        if (byte < 0x80) break;
      }
      const k = page[at]!;
      decodeRice(page, at + 1, length, k, id, ids, count);
      count += length;
      id = ids[count - 1]!;
      block = next;
    }
    this.tails.read(slot, (gap) => {
      id += gap + 1;
      ids[count] = id;
      count += 1;
    });
    return ids;
  }

  /**
   * Every key with its ids, keys ascending, one list decoded at a time (a codec or a compaction streams
   * them) into one buffer: `ids` holds until the next key is asked for. A new array per key made a
   * 1M-file index's encode allocate (and free) 4 MB for each common trigram, kept resident by malloc.
   */
  *entries(): Iterable<{ key: number; ids: Int32Array }> {
    const keys = this.keys.slice(0, this.slotCount).sort();
    // Sized once for the longest list: grown as longer lists came (keys in order, lengths in none),
    // it made a dozen arrays of up to 4 MB for a 1M-file encode, 21 MiB more held until a collection.
    let longest = 0;
    for (let slot = 0; slot < this.slotCount; slot += 1) longest = Math.max(longest, this.sealedCounts[slot]! + this.tails.count(slot));
    const buffer = new Int32Array(longest);
    for (const key of keys) yield { key, ids: this.ids(key, buffer) };
  }

  /** Seals every tail into a block at the end of its key's chain, then empties the tails' pool (keeping its pages for more when keepPages: a seal in the middle of a build). */
  seal(keepPages = false): void {
    for (let slot = 0; slot < this.slotCount; slot += 1) {
      const count = this.tails.count(slot);
      if (count === 0) continue;
      if (count > this.scratch.length) this.scratch = new Int32Array(Math.max(count, this.scratch.length * 2));
      const ids = this.scratch;
      const base = this.sealedLasts[slot]!;
      let id = base;
      let n = 0;
      this.tails.read(slot, (gap) => {
        id += gap + 1;
        ids[n] = id;
        n += 1;
      });
      this.sealRun(slot, ids, count);
    }
    this.tails.clear(keepPages);
  }

  /** Appends ids[0, count) (after the key's sealed ids, with no tail between) to the key's chain. */
  private sealRun(slot: number, ids: ArrayLike<number>, count: number): void {
    let previous = this.sealedLasts[slot]!;
    for (let from = 0; from < count; from += BLOCK_POSTINGS) {
      const to = Math.min(count, from + BLOCK_POSTINGS);
      this.appendBlock(slot, ids, from, to, previous);
      previous = ids[to - 1]!;
    }
    this.sealedCounts[slot] = this.sealedCounts[slot]! + count;
    this.sealedLasts[slot] = previous;
  }

  private appendBlock(slot: number, ids: ArrayLike<number>, from: number, to: number, previous: number): void {
    const k = riceParameter(to - from, ids[to - 1]! - previous);
    const { writer } = this;
    writer.reset();
    for (let i = 0; i < 4; i += 1) writer.byte(0xff);
    writer.varint(to - from);
    writer.byte(k);
    writer.riceGaps(ids, from, to, previous, k);
    const bytes = writer.bytes;
    if (this.pageUsed + bytes.length > PAGE_BYTES) {
      this.pages.push(new Uint8Array(PAGE_BYTES));
      this.pageUsed = 0;
    }
    const offset = (this.pages.length - 1) * PAGE_BYTES + this.pageUsed;
    this.pages[this.pages.length - 1]!.set(bytes, this.pageUsed);
    this.pageUsed += bytes.length;
    this.blockBytes += bytes.length;
    const last = this.lastBlocks[slot]!;
    if (last === NONE) this.firstBlocks[slot] = offset;
    else {
      const page = this.pages[Math.floor(last / PAGE_BYTES)]!;
      const at = last % PAGE_BYTES;
      for (let i = 0; i < 4; i += 1) page[at + i] = (offset >>> (8 * i)) & 0xff;
    }
    this.lastBlocks[slot] = offset;
  }

  private newSlot(key: number): number {
    if (this.slotCount === this.keys.length) this.growSlots();
    const slot = this.slotCount;
    this.slotCount += 1;
    this.keys[slot] = key;
    this.lastIds[slot] = -1;
    this.sealedLasts[slot] = -1;
    this.slotOf.set(key, slot);
    return slot;
  }

  private growSlots(): void {
    const grown = <T extends Uint32Array | Int32Array>(array: T, fill = 0): T => {
      const larger = new (array.constructor as new (length: number) => T)(array.length * 2);
      larger.fill(fill);
      larger.set(array);
      return larger;
    };
    this.keys = grown(this.keys);
    this.lastIds = grown(this.lastIds);
    this.sealedLasts = grown(this.sealedLasts);
    this.sealedCounts = grown(this.sealedCounts);
    this.firstBlocks = grown(this.firstBlocks, NONE);
    this.lastBlocks = grown(this.lastBlocks, NONE);
  }
}
