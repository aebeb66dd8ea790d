/**
 * Numbers that are almost always small non-negative integers (file sizes, inode numbers) in 32-bit
 * slots, where a Float64Array took twice the bytes: 8 MB less for each such field at a million files;
 * or in 16-bit slots (a file's posting count, mostly a few hundred). A value a slot cannot hold (its
 * type's largest or more, a fraction, NaN for "unknown") is kept in a map by the caller's key for that
 * slot (a file id, a row), and the slot holds that largest value to say so.
 */
export class NarrowNumbers<Slots extends Uint32Array | Uint16Array = Uint32Array> {
  private readonly wide = new Map<number, number>();
  /** The slot value that says "in the map": the slot type's largest. */
  private readonly marker: number;

  /** `bits`: the width of the caller's slots (16 for Uint16Array ones). */
  constructor(bits: 16 | 32 = 32) {
    this.marker = 2 ** bits - 1;
  }

  put(slots: Slots, at: number, key: number, value: number): void {
    if (Number.isInteger(value) && value >= 0 && value < this.marker) {
      slots[at] = value;
      if (this.wide.size > 0) this.wide.delete(key);
    } else {
      slots[at] = this.marker;
      this.wide.set(key, value);
    }
  }

  get(slots: Slots, at: number, key: number): number {
    const value = slots[at]!;
    return value === this.marker ? this.wide.get(key)! : value;
  }
}

/** A seconds slot that holds no time itself: the value is in the map of wide values. */
const WIDE_SECONDS = 0xffffffff;

/**
 * Times in ms since the epoch as whole seconds (32 bits) and the milliseconds past them (16 bits):
 * 6 bytes where a Float64Array took 8. A time before 1970, past 2106 or with a fraction of a
 * millisecond is kept in a map by the caller's key for that slot, and the slot says so.
 */
export class NarrowTimes {
  private readonly wide = new Map<number, number>();

  put(seconds: Uint32Array, millis: Uint16Array, at: number, key: number, value: number): void {
    const whole = Math.floor(value / 1000);
    if (Number.isInteger(value) && whole >= 0 && whole < WIDE_SECONDS) {
      seconds[at] = whole;
      millis[at] = value - whole * 1000;
      if (this.wide.size > 0) this.wide.delete(key);
    } else {
      seconds[at] = WIDE_SECONDS;
      this.wide.set(key, value);
    }
  }

  get(seconds: Uint32Array, millis: Uint16Array, at: number, key: number): number {
    const whole = seconds[at]!;
    return whole === WIDE_SECONDS ? this.wide.get(key)! : whole * 1000 + millis[at]!;
  }
}

/** `into` with the start of `from` copied in (as much as fits): a block or an array grown, or cut to its use. */
export function copied<T extends Uint8Array | Uint16Array | Uint32Array | Int32Array>(into: T, from?: T): T {
  if (from !== undefined) into.set(from.subarray(0, Math.min(from.length, into.length)));
  return into;
}

/**
 * The stamp columns of a block of files or entries (the index's records, the snapshot's rows): size and
 * inode in NarrowNumbers slots, mtime in NarrowTimes slots, 14 bytes a slot. `from` is the block it grows.
 */
export class StampBlock {
  readonly sizes: Uint32Array;
  readonly seconds: Uint32Array;
  readonly millis: Uint16Array;
  readonly inodes: Uint32Array;

  constructor(
    readonly capacity: number,
    from?: StampBlock,
  ) {
    this.sizes = copied(new Uint32Array(capacity), from?.sizes);
    this.seconds = copied(new Uint32Array(capacity), from?.seconds);
    this.millis = copied(new Uint16Array(capacity), from?.millis);
    this.inodes = copied(new Uint32Array(capacity), from?.inodes);
  }
}

/** Reads and writes StampBlocks' slots; the values they cannot hold are kept here by the caller's key (a file id, a row). NaN: no inode known. */
export class Stamps {
  private readonly sizes = new NarrowNumbers();
  private readonly inodes = new NarrowNumbers();
  private readonly times = new NarrowTimes();

  put(block: StampBlock, at: number, key: number, size: number, modifiedMs: number, inode: number): void {
    this.sizes.put(block.sizes, at, key, size);
    this.times.put(block.seconds, block.millis, at, key, modifiedMs);
    this.inodes.put(block.inodes, at, key, inode);
  }

  size(block: StampBlock, at: number, key: number): number {
    return this.sizes.get(block.sizes, at, key);
  }

  modifiedMs(block: StampBlock, at: number, key: number): number {
    return this.times.get(block.seconds, block.millis, at, key);
  }

  inode(block: StampBlock, at: number, key: number): number {
    return this.inodes.get(block.inodes, at, key);
  }
}
