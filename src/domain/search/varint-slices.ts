/**
 * Lists of small integers as varints in one pool of growing slices (8, 16, ... 256 bytes, each ending in
 * the offset of the next), as Lucene's byte block pool does: no object per list, a list of one value
 * costs 8 bytes, a long one wastes at most one slice's tail. Lists are numbered by their caller (slots,
 * dense from 0); a slot's first slice is taken on its first write. PostingLists keeps its lists' recent
 * ids here until it seals them into Rice-coded blocks.
 */
const SLICE_SIZES = [8, 16, 32, 64, 128, 256];
const LINK_BYTES = 4;
const PAGE_BYTES = 1 << 20;

export class VarintSlices {
  /** What bytes counts for a slot's first value: its fields and first slice. */
  static readonly SLOT_BYTES = 17 + SLICE_SIZES[0]!;
  private pages: Uint8Array[] = [];
  /** Pages of a pool emptied by clear(keepPages), taken again before any new one is made. */
  private spare: Uint8Array[] = [];
  private pageUsed = PAGE_BYTES;
  private heads = new Uint32Array(0);
  private tails = new Uint32Array(0);
  private ends = new Uint32Array(0);
  private levels = new Uint8Array(0);
  private counts = new Uint32Array(0);
  private pooled = 0;
  private started = 0;

  /** Bytes taken: the slices and each slot's fields. */
  get bytes(): number {
    return this.pooled + this.started * 17;
  }

  /**
   * Empties the pool (every slot back to no value). With keepPages, its pages are kept for the next
   * values: a build that seals every few MiB would otherwise free and make those pages each time (160 MiB
   * over a 1M-file build), and malloc kept the freed ones resident.
   */
  clear(keepPages: boolean): void {
    this.spare = keepPages ? [...this.spare, ...this.pages] : [];
    this.pages = [];
    this.pageUsed = PAGE_BYTES;
    this.counts.fill(0);
    this.pooled = 0;
    this.started = 0;
  }

  /** Pages held, in use or kept spare (what the pool costs besides its slots' fields). */
  get pagesHeld(): number {
    return this.pages.length + this.spare.length;
  }

  count(slot: number): number {
    return slot < this.counts.length ? this.counts[slot]! : 0;
  }

  write(slot: number, value: number): void {
    if (slot >= this.heads.length) this.growSlots(slot);
    if (this.counts[slot] === 0) this.start(slot);
    let rest = value;
    for (;;) {
      const byte = rest >= 0x80 ? (rest & 0x7f) | 0x80 : rest;
      if (this.tails[slot] === this.ends[slot]) this.extend(slot);
      const at = this.tails[slot]!;
      this.pages[Math.floor(at / PAGE_BYTES)]![at % PAGE_BYTES] = byte;
      this.tails[slot] = at + 1;
      if (rest < 0x80) break;
      rest = Math.floor(rest / 0x80);
    }
    this.counts[slot] = this.counts[slot]! + 1;
  }

  /** Calls `each` with the slot's values in the order written. */
  read(slot: number, each: (value: number) => void): void {
    const count = this.count(slot);
    let level = 0;
    let at = this.heads[slot]!;
    let end = at + SLICE_SIZES[0]! - LINK_BYTES;
    for (let n = 0; n < count; n += 1) {
      let value = 0;
      let scale = 1;
      for (;;) {
        if (at === end) {
          at = this.linkAt(end);
          level = Math.min(level + 1, SLICE_SIZES.length - 1);
          end = at + SLICE_SIZES[level]! - LINK_BYTES;
        }
        const byte = this.pages[Math.floor(at / PAGE_BYTES)]![at % PAGE_BYTES]!;
        at += 1;
        value += (byte & 0x7f) * scale;
        if (byte < 0x80) break;
        scale *= 0x80;
      }
      each(value);
    }
  }

  private start(slot: number): void {
    const head = this.allocate(SLICE_SIZES[0]!);
    this.started += 1;
    this.heads[slot] = head;
    this.tails[slot] = head;
    this.ends[slot] = head + SLICE_SIZES[0]! - LINK_BYTES;
    this.levels[slot] = 0;
  }

  private extend(slot: number): void {
    const level = Math.min(this.levels[slot]! + 1, SLICE_SIZES.length - 1);
    const next = this.allocate(SLICE_SIZES[level]!);
    const link = this.ends[slot]!;
    const page = this.pages[Math.floor(link / PAGE_BYTES)]!;
    const at = link % PAGE_BYTES;
    for (let i = 0; i < LINK_BYTES; i += 1) page[at + i] = (next >>> (8 * i)) & 0xff;
    this.levels[slot] = level;
    this.tails[slot] = next;
    this.ends[slot] = next + SLICE_SIZES[level]! - LINK_BYTES;
  }

  private linkAt(offset: number): number {
    const page = this.pages[Math.floor(offset / PAGE_BYTES)]!;
    const at = offset % PAGE_BYTES;
    return (page[at]! | (page[at + 1]! << 8) | (page[at + 2]! << 16) | (page[at + 3]! << 24)) >>> 0;
  }

  /** A slice never crosses a page: a page ends with fewer unused bytes than the largest slice. */
  private allocate(size: number): number {
    if (this.pageUsed + size > PAGE_BYTES) {
      this.pages.push(this.spare.pop() ?? new Uint8Array(PAGE_BYTES));
      this.pageUsed = 0;
    }
    const offset = (this.pages.length - 1) * PAGE_BYTES + this.pageUsed;
    this.pageUsed += size;
    this.pooled += size;
    return offset;
  }

  private growSlots(slot: number): void {
    const length = Math.max(1024, slot + 1, this.heads.length * 2);
    const grown = <T extends Uint32Array | Uint8Array>(array: T): T => {
      const larger = new (array.constructor as new (length: number) => T)(length);
      larger.set(array);
      return larger;
    };
    this.heads = grown(this.heads);
    this.tails = grown(this.tails);
    this.ends = grown(this.ends);
    this.levels = grown(this.levels);
    this.counts = grown(this.counts);
  }
}
