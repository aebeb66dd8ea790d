import { giveWay, runAtOnce, type Steps } from './steps.js';
import { type FileStamp, type IndexedFile, TrigramIndex } from './trigram-index.js';

/**
 * The index as bytes for the private state directory: a header, the files (path, stamp, binary flag)
 * in id order, then each trigram key (ascending, as deltas) with its file ids: the gaps between them
 * Rice-coded with a parameter both sides derive from the list's length and the file count (a posting
 * in a dense list costs a few bits, not a byte). Other integers are LEB128 varints. Bytes that do not decode
 * cleanly give undefined: the caller rebuilds rather than trust a torn or foreign file.
 */
const MAGIC = [0x54, 0x47, 0x49, 0x33]; // "TGI3"
const UTF8 = new TextEncoder();
const STRICT_UTF8 = new TextDecoder('utf-8', { fatal: true });

/** How much work (files, lists and postings) goes between two points where a stepped encode or decode may give way. */
const STEP = 4096;

/** `prefix` (a container's header) comes first, outside the checksum; decode the bytes after it. */
export function encodeIndex(index: TrigramIndex, prefix: Uint8Array = new Uint8Array(0)): Uint8Array {
  return runAtOnce(encodeSteps(index, prefix));
}

/**
 * encodeIndex in steps (see steps.ts). The index must not change until it returns: its caller holds
 * back the index's refreshes meanwhile (IndexPersistence.save).
 */
export function* encodeSteps(index: TrigramIndex, prefix: Uint8Array = new Uint8Array(0)): Steps<Uint8Array> {
  const out = new ByteWriter();
  const { files, lists } = yield* index.snapshotSteps(STEP);
  for (const byte of prefix) out.byte(byte);
  for (const byte of MAGIC) out.byte(byte);
  const fileCount = index.size;
  out.uint(fileCount);
  let work = 0;
  for (const { path, file } of files) {
    if ((work += 1) >= STEP) work = yield* giveWay();
    out.text(path);
    out.uint(file.stamp.size);
    out.uint(file.stamp.modifiedMs);
    out.uint(file.stamp.inode === undefined ? 0 : file.stamp.inode + 1);
    out.byte(file.binary ? 1 : 0);
  }
  // Lists come ascending by key, one at a time: all of them at once would take 4 bytes per posting.
  out.uint(index.keyCount);
  let previousKey = 0;
  for (const { key, ids } of lists) {
    if ((work += 1 + ids.length) >= STEP) work = yield* giveWay();
    out.uint(key - previousKey);
    previousKey = key;
    out.uint(ids.length);
    const k = riceParameter(ids.length, fileCount);
    let previous = -1;
    for (const id of ids) {
      out.rice(id - previous - 1, k);
      previous = id;
    }
    out.flushBits();
  }
  const sum = yield* checksumSteps(out.bytes().subarray(prefix.length));
  for (const shift of [24, 16, 8, 0]) out.byte((sum >>> shift) & 0xff);
  return out.bytes();
}

/** FNV-1a over the body: a torn write or a flipped bit that still parses is refused too. */
function* checksumSteps(bytes: Uint8Array): Steps<number> {
  let hash = 0x811c9dc5;
  for (let at = 0; at < bytes.length; at += 1) {
    hash = Math.imul(hash ^ bytes[at]!, 0x01000193) >>> 0;
    if ((at & 0xffff) === 0xffff) yield;
  }
  return hash;
}

export function decodeIndex(sealed: Uint8Array, maxBytes: number): TrigramIndex | undefined {
  return runAtOnce(decodeSteps(sealed, maxBytes));
}

/** decodeIndex in steps (see steps.ts): the index it builds is its own until it returns. */
export function* decodeSteps(sealed: Uint8Array, maxBytes: number): Steps<TrigramIndex | undefined> {
  if (sealed.length < 4) return undefined;
  const bytes = sealed.subarray(0, sealed.length - 4);
  if (new DataView(sealed.buffer, sealed.byteOffset).getUint32(bytes.length) !== (yield* checksumSteps(bytes))) return undefined;
  try {
    const input = new ByteReader(bytes);
    for (const byte of MAGIC) if (input.byte() !== byte) return undefined;
    const fileCount = input.uint();
    if (fileCount > bytes.length) return undefined;
    // Streamed into the index a file and a list at a time: all at once would take several times its size.
    const index = yield* TrigramIndex.restoreSteps(maxBytes, filesOf(input, fileCount), listsOf(input, fileCount), STEP);
    return input.atEnd() ? index : undefined;
  } catch (error) {
    if (error instanceof TruncatedIndex) return undefined;
    throw error;
  }
}

/** The files, read as they are asked for; bytes no encoder wrote throw TruncatedIndex. */
function* filesOf(input: ByteReader, count: number): Iterable<{ path: string; file: IndexedFile }> {
  for (let left = count; left > 0; left -= 1) {
    const path = input.text();
    const stamp: FileStamp = { size: input.uint(), modifiedMs: input.uint(), ...inodeOf(input.uint()) };
    const flag = input.byte();
    if (flag > 1) throw new TruncatedIndex();
    yield { path, file: { stamp, binary: flag === 1 } };
  }
}

/** Each key's ids, read as they are asked for (into one reused buffer); bytes no encoder wrote throw TruncatedIndex. */
function* listsOf(input: ByteReader, files: number): Iterable<{ key: number; ids: Int32Array }> {
  let buffer = new Int32Array(1024);
  let key = -1;
  for (let count = input.uint(); count > 0; count -= 1) {
    const next = Math.max(key, 0) + input.uint();
    // Keys come ascending, each once, and fit 24 bits.
    if (next <= key || next > 0xffffff) throw new TruncatedIndex();
    key = next;
    const length = input.uint();
    if (length > files) throw new TruncatedIndex();
    if (length > buffer.length) buffer = new Int32Array(Math.max(length, buffer.length * 2));
    const k = riceParameter(length, files);
    let id = -1;
    for (let n = 0; n < length; n += 1) {
      id += input.rice(k) + 1;
      buffer[n] = id;
    }
    input.skipBits();
    yield { key, ids: buffer.subarray(0, length) };
  }
}

/** Rice parameter for `count` ids among `files`: about log2 of the mean gap. */
function riceParameter(count: number, files: number): number {
  return count === 0 ? 0 : Math.max(0, Math.floor(Math.log2(files / count)));
}

function inodeOf(stored: number): { inode?: number } {
  return stored === 0 ? {} : { inode: stored - 1 };
}

/** The bytes end early or hold what no encoder wrote. */
class TruncatedIndex extends Error {}

class ByteWriter {
  private buffer = new Uint8Array(1 << 16);
  private length = 0;
  private bits = 0;
  private bitCount = 0;

  /** `value` as a run of ones (value >> k), a zero, then its k low bits, most significant first. */
  rice(value: number, k: number): void {
    let q = Math.floor(value / 2 ** k);
    for (; q >= 16; q -= 16) this.bitRun(0xffff, 16);
    // q ones then the zero, as q + 1 bits.
    this.bitRun(((1 << q) - 1) << 1, q + 1);
    if (k > 0) this.bitRun(value % 2 ** k, k);
  }

  /** The `count` (at most 24) low bits of `value`, most significant first. */
  private bitRun(value: number, count: number): void {
    this.bits = (this.bits << count) | value;
    this.bitCount += count;
    while (this.bitCount >= 8) {
      this.bitCount -= 8;
      this.byte((this.bits >>> this.bitCount) & 0xff);
    }
    this.bits &= (1 << this.bitCount) - 1;
  }

  /** Pads the bits written since the last flush to a whole byte. */
  flushBits(): void {
    if (this.bitCount > 0) this.byte(this.bits << (8 - this.bitCount));
    this.bits = 0;
    this.bitCount = 0;
  }

  byte(value: number): void {
    if (this.length === this.buffer.length) this.grow();
    this.buffer[this.length] = value;
    this.length += 1;
  }

  uint(value: number): void {
    let rest = value;
    while (rest >= 0x80) {
      this.byte((rest % 0x80) | 0x80);
      rest = Math.floor(rest / 0x80);
    }
    this.byte(rest);
  }

  text(value: string): void {
    const encoded = UTF8.encode(value);
    this.uint(encoded.length);
    for (const byte of encoded) this.byte(byte);
  }

  /** What was written so far (a view: no copy of a large index). */
  bytes(): Uint8Array {
    return this.buffer.subarray(0, this.length);
  }

  private grow(): void {
    // By half: a doubling buffer could hold twice the index at the end.
    const larger = new Uint8Array(Math.ceil(this.buffer.length * 1.5));
    larger.set(this.buffer);
    this.buffer = larger;
  }
}

class ByteReader {
  private at = 0;
  private bits = 0;
  private bitCount = 0;

  /** A byte's bits at a time: the run of ones up to its zero, then the k low bits. */
  rice(k: number): number {
    let q = 0;
    for (;;) {
      if (this.bitCount === 0) this.refill();
      const zeros = ~this.bits & ((1 << this.bitCount) - 1);
      if (zeros === 0) {
        q += this.bitCount;
        this.bitCount = 0;
        continue;
      }
      const zeroAt = 31 - Math.clz32(zeros);
      q += this.bitCount - 1 - zeroAt;
      this.bitCount = zeroAt;
      break;
    }
    let low = 0;
    for (let left = k; left > 0; ) {
      if (this.bitCount === 0) this.refill();
      const take = Math.min(left, this.bitCount);
      low = low * 2 ** take + ((this.bits >>> (this.bitCount - take)) & ((1 << take) - 1));
      this.bitCount -= take;
      left -= take;
    }
    return q * 2 ** k + low;
  }

  private refill(): void {
    this.bits = this.byte();
    this.bitCount = 8;
  }

  /** Drops the padding bits of the current byte. */
  skipBits(): void {
    this.bitCount = 0;
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

  text(): string {
    const length = this.uint();
    if (this.at + length > this.input.length) throw new TruncatedIndex();
    const slice = this.input.subarray(this.at, this.at + length);
    this.at += length;
    try {
      return STRICT_UTF8.decode(slice);
    } catch {
      throw new TruncatedIndex();
    }
  }

  atEnd(): boolean {
    return this.at === this.input.length;
  }
}
