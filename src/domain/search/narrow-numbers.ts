/** A slot that holds no number itself: the value is in the map of wide values. */
const WIDE = 0xffffffff;

/**
 * Numbers that are almost always small non-negative integers (file sizes, inode numbers) in 32-bit
 * slots, where a Float64Array took twice the bytes: 8 MB less for each such field at a million files.
 * A value a slot cannot hold (4 GiB or more, a fraction, NaN for "unknown") is kept in a map by the
 * caller's key for that slot (a file id, a row), and the slot says so.
 */
export class NarrowNumbers {
  private readonly wide = new Map<number, number>();

  put(slots: Uint32Array, at: number, key: number, value: number): void {
    if (Number.isInteger(value) && value >= 0 && value < WIDE) {
      slots[at] = value;
      if (this.wide.size > 0) this.wide.delete(key);
    } else {
      slots[at] = WIDE;
      this.wide.set(key, value);
    }
  }

  get(slots: Uint32Array, at: number, key: number): number {
    const value = slots[at]!;
    return value === WIDE ? this.wide.get(key)! : value;
  }
}

/**
 * Times in ms since the epoch as whole seconds (32 bits) and the milliseconds past them (16 bits):
 * 6 bytes where a Float64Array took 8. A time before 1970, past 2106 or with a fraction of a
 * millisecond is kept in a map by the caller's key for that slot, and the slot says so.
 */
export class NarrowTimes {
  private readonly wide = new Map<number, number>();

  put(seconds: Uint32Array, millis: Uint16Array, at: number, key: number, value: number): void {
    const whole = Math.floor(value / 1000);
    if (Number.isInteger(value) && whole >= 0 && whole < WIDE) {
      seconds[at] = whole;
      millis[at] = value - whole * 1000;
      if (this.wide.size > 0) this.wide.delete(key);
    } else {
      seconds[at] = WIDE;
      this.wide.set(key, value);
    }
  }

  get(seconds: Uint32Array, millis: Uint16Array, at: number, key: number): number {
    const whole = seconds[at]!;
    return whole === WIDE ? this.wide.get(key)! : whole * 1000 + millis[at]!;
  }
}
