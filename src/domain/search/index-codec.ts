import { ByteReader, ByteWriter, OverBound, TruncatedIndex } from './index-bytes.js';
import { BitWriter, riceGapBytes, riceParameter } from './rice-blocks.js';
import { giveWay, runAtOnce, type Steps } from './steps.js';
import { type FileStamp, type IndexedFile, TrigramIndex } from './trigram-index.js';

/**
 * The index as bytes for the private state directory: a header, the files in id order (walk order, so
 * a folder's files come together), each as its path's UTF-8 against the previous path's (the bytes shared
 * at the front, those shared at the end, the middle between), its size and binary flag, its mtime and inode as signed deltas from the
 * previous file's; then each trigram key (ascending, as deltas) with its file ids: the gaps between them
 * Rice-coded with a parameter both sides derive from the list's length and the file count (a posting
 * in a dense list costs a few bits, not a byte). Other integers are LEB128 varints. Bytes that do not decode
 * cleanly give undefined: the caller rebuilds rather than trust a torn or foreign file.
 * Format 4 (TGI4); TGI3 wrote whole paths and stamps (a small file's entry took 27 bytes, now about 8).
 */
const MAGIC = [0x54, 0x47, 0x49, 0x34]; // "TGI4"
const UTF8 = new TextEncoder();

/** How much work (files, lists and postings) goes between two points where a stepped encode or decode may give way. */
const STEP = 4096;

/** `prefix` (a container's header) comes first, outside the checksum; decode the bytes after it. */
export function encodeIndex(index: TrigramIndex, prefix: Uint8Array = new Uint8Array(0)): Uint8Array {
  return runAtOnce(encodeSteps(index, prefix))!;
}

/**
 * encodeIndex in steps (see steps.ts). The index must not change until it returns: its caller holds
 * back the index's refreshes meanwhile (IndexPersistence.save). Undefined, as soon as it is known,
 * when the bytes (prefix included) would pass `maxBytes`. Two passes: the first only counts the bytes,
 * the second writes them into a buffer of exactly that size. An index that will not be stored is never
 * held as bytes at all, and one that will is held once: a buffer grown by half held up to 2.5 times the
 * index at its last copy, and kept the freed copies resident (a 1M-file index refused at its 39 MB bound
 * took the server from 308 to 369 MiB).
 */
export function* encodeSteps(index: TrigramIndex, prefix: Uint8Array = new Uint8Array(0), maxBytes = Infinity): Steps<Uint8Array | undefined> {
  const counted = new ByteWriter(maxBytes);
  try {
    yield* encodeWithin(index, prefix, counted);
  } catch (error) {
    if (error instanceof OverBound) return undefined;
    throw error;
  }
  const out = new ByteWriter(counted.length, new Uint8Array(counted.length));
  const bytes = yield* encodeWithin(index, prefix, out);
  // The same index gives the same bytes: a difference means it changed between the passes.
  if (bytes.length !== counted.length) throw new Error('the index changed during its encode');
  return bytes;
}

function* encodeWithin(index: TrigramIndex, prefix: Uint8Array, out: ByteWriter): Steps<Uint8Array> {
  const { lists } = yield* index.snapshotSteps(STEP);
  for (const byte of prefix) out.byte(byte);
  for (const byte of MAGIC) out.byte(byte);
  const fileCount = index.size;
  out.uint(fileCount);
  let work = 0;
  // The previous path's bytes are copied aside: a row's path is a view the next row overwrites.
  let previous = new Uint8Array(256);
  let previousLength = 0;
  let mtime = 0;
  let inode = 0;
  for (const file of index.fileRows()) {
    if ((work += 1) >= STEP) work = yield* giveWay();
    const bytes = file.path;
    const most = Math.min(bytes.length, previousLength);
    let shared = 0;
    while (shared < most && bytes[shared] === previous[shared]) shared += 1;
    let tail = 0;
    while (shared + tail < most && bytes[bytes.length - 1 - tail] === previous[previousLength - 1 - tail]) tail += 1;
    out.uint(shared);
    out.uint(tail);
    out.uint(bytes.length - shared - tail);
    out.write(bytes.subarray(shared, bytes.length - tail));
    if (bytes.length > previous.length) previous = new Uint8Array(bytes.length * 2);
    previous.set(bytes);
    previousLength = bytes.length;
    out.uint(file.size * 2 + (file.binary ? 1 : 0));
    out.signed(file.modifiedMs - mtime);
    mtime = file.modifiedMs;
    const stored = Number.isNaN(file.inode) ? 0 : file.inode + 1;
    out.signed(stored - inode);
    inode = stored;
  }
  // Lists come ascending by key, one at a time: all of them at once would take 4 bytes per posting.
  out.uint(index.keyCount);
  let previousKey = 0;
  const bits = new BitWriter();
  for (const { key, ids } of lists) {
    if ((work += 1 + ids.length) >= STEP) work = yield* giveWay();
    out.uint(key - previousKey);
    previousKey = key;
    out.uint(ids.length);
    const k = riceParameter(ids.length, fileCount);
    // Counting, the bits are counted, not written.
    if (out.counting) out.skip(riceGapBytes(ids, 0, ids.length, -1, k));
    else {
      bits.reset();
      bits.riceGaps(ids, 0, ids.length, -1, k);
      out.write(bits.bytes);
    }
  }
  const sum = out.counting ? 0 : yield* checksumSteps(out.bytes().subarray(prefix.length));
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
  let previous = new Uint8Array(0);
  let mtime = 0;
  let inode = 0;
  for (let left = count; left > 0; left -= 1) {
    const shared = input.uint();
    const tail = input.uint();
    if (shared + tail > previous.length) throw new TruncatedIndex();
    const middle = input.slice(input.uint());
    const bytes = new Uint8Array(shared + middle.length + tail);
    bytes.set(previous.subarray(0, shared));
    bytes.set(middle, shared);
    bytes.set(previous.subarray(previous.length - tail), shared + middle.length);
    previous = bytes;
    const sized = input.uint();
    mtime += input.signed();
    inode += input.signed();
    if (inode < 0) throw new TruncatedIndex();
    const stamp: FileStamp = { size: Math.floor(sized / 2), modifiedMs: mtime, ...inodeOf(inode) };
    yield { path: input.utf8(bytes), file: { stamp, binary: sized % 2 === 1 } };
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
    input.rice(length, riceParameter(length, files), buffer);
    yield { key, ids: buffer.subarray(0, length) };
  }
}

function inodeOf(stored: number): { inode?: number } {
  return stored === 0 ? {} : { inode: stored - 1 };
}
