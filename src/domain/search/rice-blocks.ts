/**
 * Ascending ids as Rice-coded gaps (gap = id - previous - 1, each as a run of ones for gap >> k, a
 * zero, then k low bits, most significant first), in a byte array. k comes from the block's mean gap,
 * so the unary parts of a block sum to at most twice its count whatever its outliers: a posting in a
 * dense list costs one or two bits, in a list of one file in a thousand about twelve.
 */
export function riceParameter(count: number, span: number): number {
  return count === 0 || span <= count ? 0 : Math.min(30, Math.floor(Math.log2(span / count)));
}

/** The bytes BitWriter.riceGaps writes for these ids and k, counted without writing them (an encode's first pass). */
export function riceGapBytes(ids: ArrayLike<number>, from: number, to: number, previous: number, k: number): number {
  let last = previous;
  const low = 2 ** k;
  let bits = 0;
  for (let i = from; i < to; i += 1) {
    bits += Math.floor((ids[i]! - last - 1) / low) + 1 + k;
    last = ids[i]!;
  }
  return Math.ceil(bits / 8);
}

/** Writes bits into a growable byte buffer; reused block after block. */
export class BitWriter {
  private buffer = new Uint8Array(1 << 12);
  private length = 0;
  private bits = 0;
  private bitCount = 0;

  get bytes(): Uint8Array {
    return this.buffer.subarray(0, this.length);
  }

  reset(): void {
    this.length = 0;
    this.bits = 0;
    this.bitCount = 0;
  }

  /** The gaps of ids[from, to) after `previous`, Rice-coded with parameter k, padded to a byte. */
  riceGaps(ids: ArrayLike<number>, from: number, to: number, previous: number, k: number): void {
    let last = previous;
    const low = 2 ** k;
    for (let i = from; i < to; i += 1) {
      const gap = ids[i]! - last - 1;
      last = ids[i]!;
      let q = Math.floor(gap / low);
      for (; q >= 16; q -= 16) this.put(0xffff, 16);
      this.put(((1 << q) - 1) << 1, q + 1);
      // k is at most 30: its low bits go in two puts of at most 15.
      const rest = gap % low;
      if (k > 15) this.put(Math.floor(rest / 32768), k - 15);
      if (k > 0) this.put(rest & 0x7fff & (low - 1), Math.min(k, 15));
    }
    if (this.bitCount > 0) this.byte((this.bits << (8 - this.bitCount)) & 0xff);
    this.bits = 0;
    this.bitCount = 0;
  }

  byte(value: number): void {
    if (this.length === this.buffer.length) {
      const larger = new Uint8Array(this.buffer.length * 2);
      larger.set(this.buffer);
      this.buffer = larger;
    }
    this.buffer[this.length] = value;
    this.length += 1;
  }

  varint(value: number): void {
    let rest = value;
    while (rest >= 0x80) {
      this.byte((rest % 0x80) | 0x80);
      rest = Math.floor(rest / 0x80);
    }
    this.byte(rest);
  }

  /** The `count` (at most 17) low bits of `value`. */
  private put(value: number, count: number): void {
    this.bits = (this.bits << count) | value;
    this.bitCount += count;
    while (this.bitCount >= 8) {
      this.bitCount -= 8;
      this.byte((this.bits >>> this.bitCount) & 0xff);
    }
    this.bits &= (1 << this.bitCount) - 1;
  }
}

/**
 * Decodes `count` Rice-coded gaps from bytes[at...] into out[outAt...], ids running on from `previous`;
 * returns the offset after the block's last (padded) byte. The caller trusts the bytes (its own).
 */
export function decodeRice(bytes: Uint8Array, at: number, count: number, k: number, previous: number, out: Int32Array, outAt: number): number {
  let offset = at;
  let bits = 0;
  let bitCount = 0;
  let id = previous;
  const low = 2 ** k;
  for (let n = 0; n < count; n += 1) {
    let q = 0;
    for (;;) {
      if (bitCount === 0) {
        bits = bytes[offset]!;
        offset += 1;
        bitCount = 8;
      }
      const zeros = ~bits & ((1 << bitCount) - 1);
      if (zeros === 0) {
        q += bitCount;
        bitCount = 0;
        continue;
      }
      const zeroAt = 31 - Math.clz32(zeros);
      q += bitCount - 1 - zeroAt;
      bitCount = zeroAt;
      break;
    }
    let rest = 0;
    for (let left = k; left > 0; ) {
      if (bitCount === 0) {
        bits = bytes[offset]!;
        offset += 1;
        bitCount = 8;
      }
      const take = Math.min(left, bitCount);
      rest = rest * (1 << take) + ((bits >>> (bitCount - take)) & ((1 << take) - 1));
      bitCount -= take;
      left -= take;
    }
    id += q * low + rest + 1;
    out[outAt + n] = id;
  }
  return offset;
}
