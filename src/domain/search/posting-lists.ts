/**
 * Posting lists (trigram key -> ascending file ids) as varint deltas in one byte pool, so a posting
 * costs one byte where ids are close and no list is an object of its own. A list grows in slices of
 * doubling size (8, 16, ... 256 bytes), each ending in the offset of the next, as Lucene's byte
 * block pool does: a key seen once costs 8 bytes, a long list wastes at most one slice's tail.
 */
const SLICE_SIZES = [8, 16, 32, 64, 128, 256];
const LINK_BYTES = 4;
const PAGE_BYTES = 1 << 20;

export class PostingLists {
  private pages: Uint8Array[] = [];
  private pageUsed = PAGE_BYTES;
  private readonly slotOf = new Map<number, number>();
  private keys = new Uint32Array(1024);
  private heads = new Uint32Array(1024);
  private tails = new Uint32Array(1024);
  private ends = new Uint32Array(1024);
  private levels = new Uint8Array(1024);
  private lastIds = new Int32Array(1024);
  private counts = new Uint32Array(1024);
  private slotCount = 0;
  private pooled = 0;
  /** Postings held, live or not. */
  postings = 0;

  /** Bytes taken: the pool's slices and each key's fixed fields. */
  get bytes(): number {
    return this.pooled + this.slotCount * 24;
  }

  get keyCount(): number {
    return this.slotCount;
  }

  /** Appends `id` to the key's list; ids must come in ascending order per key. */
  add(key: number, id: number): void {
    let slot = this.slotOf.get(key);
    if (slot === undefined) slot = this.newSlot(key);
    this.write(slot, id - this.lastIds[slot]!);
    this.lastIds[slot] = id;
    this.counts[slot] = this.counts[slot]! + 1;
    this.postings += 1;
  }

  /** add() of each id in turn (ascending, after the key's last), the key looked up once. */
  addAll(key: number, ids: ArrayLike<number>): void {
    let slot = this.slotOf.get(key);
    if (slot === undefined) slot = this.newSlot(key);
    let last = this.lastIds[slot]!;
    for (let i = 0; i < ids.length; i += 1) {
      this.write(slot, ids[i]! - last);
      last = ids[i]!;
    }
    this.lastIds[slot] = last;
    this.counts[slot] = this.counts[slot]! + ids.length;
    this.postings += ids.length;
  }

  /** The key's ids, ascending; empty when the key was never added. */
  ids(key: number): Int32Array {
    const slot = this.slotOf.get(key);
    if (slot === undefined) return new Int32Array(0);
    const count = this.counts[slot]!;
    const ids = new Int32Array(count);
    let level = 0;
    let at = this.heads[slot]!;
    let end = at + SLICE_SIZES[0]! - LINK_BYTES;
    let id = 0;
    for (let n = 0; n < count; n += 1) {
      let value = 0;
      let shift = 0;
      for (;;) {
        if (at === end) {
          at = this.linkAt(end);
          level = Math.min(level + 1, SLICE_SIZES.length - 1);
          end = at + SLICE_SIZES[level]! - LINK_BYTES;
        }
        const byte = this.byteAt(at);
        at += 1;
        value += (byte & 0x7f) * 2 ** shift;
        if (byte < 0x80) break;
        shift += 7;
      }
      id += value;
      ids[n] = id;
    }
    return ids;
  }

  /** Every key with its ids, keys ascending, one list decoded at a time (a codec or a compaction streams them). */
  *entries(): Iterable<{ key: number; ids: Int32Array }> {
    const keys = this.keys.slice(0, this.slotCount).sort();
    for (const key of keys) yield { key, ids: this.ids(key) };
  }

  private write(slot: number, value: number): void {
    let rest = value;
    for (;;) {
      const byte = rest >= 0x80 ? (rest & 0x7f) | 0x80 : rest;
      if (this.tails[slot] === this.ends[slot]) this.extend(slot);
      const at = this.tails[slot]!;
      this.pages[Math.floor(at / PAGE_BYTES)]![at % PAGE_BYTES] = byte;
      this.tails[slot] = at + 1;
      if (rest < 0x80) return;
      rest = Math.floor(rest / 0x80);
    }
  }

  private extend(slot: number): void {
    const level = Math.min(this.levels[slot]! + 1, SLICE_SIZES.length - 1);
    const next = this.allocate(SLICE_SIZES[level]!);
    const link = this.ends[slot]!;
    const page = this.pages[Math.floor(link / PAGE_BYTES)]!;
    const at = link % PAGE_BYTES;
    page[at] = next & 0xff;
    page[at + 1] = (next >>> 8) & 0xff;
    page[at + 2] = (next >>> 16) & 0xff;
    page[at + 3] = (next >>> 24) & 0xff;
    this.levels[slot] = level;
    this.tails[slot] = next;
    this.ends[slot] = next + SLICE_SIZES[level]! - LINK_BYTES;
  }

  private linkAt(offset: number): number {
    const page = this.pages[Math.floor(offset / PAGE_BYTES)]!;
    const at = offset % PAGE_BYTES;
    return (page[at]! | (page[at + 1]! << 8) | (page[at + 2]! << 16) | (page[at + 3]! << 24)) >>> 0;
  }

  private byteAt(offset: number): number {
    return this.pages[Math.floor(offset / PAGE_BYTES)]![offset % PAGE_BYTES]!;
  }

  /** A slice never crosses a page: a page ends with fewer unused bytes than the largest slice. */
  private allocate(size: number): number {
    if (this.pageUsed + size > PAGE_BYTES) {
      this.pages.push(new Uint8Array(PAGE_BYTES));
      this.pageUsed = 0;
    }
    const offset = (this.pages.length - 1) * PAGE_BYTES + this.pageUsed;
    this.pageUsed += size;
    this.pooled += size;
    return offset;
  }

  private newSlot(key: number): number {
    if (this.slotCount === this.keys.length) this.growSlots();
    const slot = this.slotCount;
    this.slotCount += 1;
    const head = this.allocate(SLICE_SIZES[0]!);
    this.keys[slot] = key;
    this.heads[slot] = head;
    this.tails[slot] = head;
    this.ends[slot] = head + SLICE_SIZES[0]! - LINK_BYTES;
    this.levels[slot] = 0;
    this.lastIds[slot] = 0;
    this.counts[slot] = 0;
    this.slotOf.set(key, slot);
    return slot;
  }

  private growSlots(): void {
    const grown = <T extends Uint32Array | Int32Array | Uint8Array>(array: T): T => {
      const larger = new (array.constructor as new (length: number) => T)(array.length * 2);
      larger.set(array);
      return larger;
    };
    this.keys = grown(this.keys);
    this.heads = grown(this.heads);
    this.tails = grown(this.tails);
    this.ends = grown(this.ends);
    this.levels = grown(this.levels);
    this.lastIds = grown(this.lastIds);
    this.counts = grown(this.counts);
  }
}
