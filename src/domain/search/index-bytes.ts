import { decodeRice } from './rice-blocks.js';

/**
 * The index codec's bytes: a writer that counts them (a first pass, to know the size) or writes them
 * into a buffer of that size, and a reader that refuses what no encoder wrote. Integers are LEB128
 * varints; a signed one is its magnitude doubled, plus one when negative.
 */
const STRICT_UTF8 = new TextDecoder('utf-8', { fatal: true });

/** The bytes end early or hold what no encoder wrote. */
export class TruncatedIndex extends Error {}

/** The encoded bytes would pass their bound. */
export class OverBound extends Error {}

/** Counts bytes (no buffer: OverBound past `maxBytes`), or writes them into `buffer`, which must be large enough. */
export class ByteWriter {
  length = 0;

  constructor(
    private readonly maxBytes: number,
    private readonly buffer?: Uint8Array,
  ) {}

  get counting(): boolean {
    return this.buffer === undefined;
  }

  byte(value: number): void {
    if (this.length >= this.maxBytes) throw new OverBound();
    if (this.buffer !== undefined) this.buffer[this.length] = value;
    this.length += 1;
  }

  write(bytes: Uint8Array): void {
    if (this.buffer === undefined) this.skip(bytes.length);
    else {
      if (this.length + bytes.length > this.maxBytes) throw new OverBound();
      this.buffer.set(bytes, this.length);
      this.length += bytes.length;
    }
  }

  /** Counts `count` bytes not written (counting only). */
  skip(count: number): void {
    if (this.length + count > this.maxBytes) throw new OverBound();
    this.length += count;
  }

  uint(value: number): void {
    let rest = value;
    while (rest >= 0x80) {
      this.byte((rest % 0x80) | 0x80);
      rest = Math.floor(rest / 0x80);
    }
    this.byte(rest);
  }

  /** A signed integer as a varint: its magnitude doubled, plus one when negative. */
  signed(value: number): void {
    this.uint(value < 0 ? -value * 2 + 1 : value * 2);
  }

  /** What was written so far (a view: no copy of a large index); empty when counting. */
  bytes(): Uint8Array {
    return this.buffer === undefined ? new Uint8Array(0) : this.buffer.subarray(0, this.length);
  }
}

export class ByteReader {
  private at = 0;

  /** `count` Rice-coded gaps with parameter k into `out` (ids from 0); the list's padding bits dropped. */
  rice(count: number, k: number, out: Int32Array): void {
    this.at = decodeRice(this.input, this.at, count, k, -1, out, 0);
    if (this.at > this.input.length) throw new TruncatedIndex();
  }

  constructor(private readonly input: Uint8Array) {}

  byte(): number {
    if (this.at >= this.input.length) throw new TruncatedIndex();
    const value = this.input[this.at]!;
    this.at += 1;
    return value;
  }

  /** Up to 2^53: mtimes in ms and inodes fit; a longer run of continuation bytes is corrupt. */
  uint(): number {
    let value = 0;
    let scale = 1;
    for (let length = 0; length < 8; length += 1) {
      const byte = this.byte();
      value += (byte & 0x7f) * scale;
      if (byte < 0x80) return value;
      scale *= 0x80;
    }
    throw new TruncatedIndex();
  }

  signed(): number {
    const value = this.uint();
    return value % 2 === 1 ? -(value - 1) / 2 : value / 2;
  }

  /** The next `length` bytes (a view). */
  slice(length: number): Uint8Array {
    if (this.at + length > this.input.length) throw new TruncatedIndex();
    const slice = this.input.subarray(this.at, this.at + length);
    this.at += length;
    return slice;
  }

  /** Bytes that are not UTF-8 are bytes no encoder wrote. */
  utf8(bytes: Uint8Array): string {
    try {
      return STRICT_UTF8.decode(bytes);
    } catch {
      throw new TruncatedIndex();
    }
  }

  atEnd(): boolean {
    return this.at === this.input.length;
  }
}
