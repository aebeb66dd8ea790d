import type { RootIdentity } from '../ports/index-store.port.js';
import { decodeSteps, encodeSteps } from './index-codec.js';
import type { Steps } from './steps.js';
import type { TrigramIndex } from './trigram-index.js';

/**
 * A stored index: a header naming the format version and the tree it was built from (root name,
 * the real path's device, inode and birth time), then the codec's bytes (checksummed). Only an index of the
 * same tree is used: a root re-pointed elsewhere, or a file from another root, never answers.
 */
const MAGIC = [0x4d, 0x46, 0x53, 0x49]; // "MFSI"
export const STORED_INDEX_VERSION = 2;

/** In steps (see steps.ts): the index must not change until it returns. Undefined when it would pass `maxBytes`. */
export function* sealStoredIndex(identity: RootIdentity, index: TrigramIndex, maxBytes = Infinity): Steps<Uint8Array | undefined> {
  const name = new TextEncoder().encode(identity.name);
  const header = new Uint8Array(4 + 1 + 4 + name.length + 24);
  const view = new DataView(header.buffer);
  header.set(MAGIC);
  header[4] = STORED_INDEX_VERSION;
  view.setUint32(5, name.length);
  header.set(name, 9);
  view.setFloat64(9 + name.length, identity.device);
  view.setFloat64(17 + name.length, identity.inode);
  view.setFloat64(25 + name.length, identity.born);
  // One buffer, header first: a copy of a large index would double the save's memory.
  return yield* encodeSteps(index, header, maxBytes);
}

/** The index the bytes hold for this tree, or why they are refused (corrupt, another version, another tree). */
/** In steps (see steps.ts). */
export function* openStoredIndex(identity: RootIdentity, bytes: Uint8Array, maxBytes: number): Steps<{ index: TrigramIndex } | { refused: string }> {
  if (bytes.length < 9 || MAGIC.some((byte, at) => bytes[at] !== byte)) return { refused: 'not a stored index' };
  if (bytes[4] !== STORED_INDEX_VERSION) return { refused: `format version ${bytes[4]}, not ${STORED_INDEX_VERSION}` };
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.length);
  const nameLength = view.getUint32(5);
  if (bytes.length < 33 + nameLength) return { refused: 'cut short' };
  let name: string;
  try {
    name = new TextDecoder('utf-8', { fatal: true }).decode(bytes.subarray(9, 9 + nameLength));
  } catch {
    return { refused: 'not a stored index' };
  }
  const device = view.getFloat64(9 + nameLength);
  const inode = view.getFloat64(17 + nameLength);
  const born = view.getFloat64(25 + nameLength);
  if (name !== identity.name || device !== identity.device || inode !== identity.inode || born !== identity.born) return { refused: 'built from another tree' };
  const index = yield* decodeSteps(bytes.subarray(33 + nameLength), maxBytes);
  return index === undefined ? { refused: 'checksum or contents wrong' } : { index };
}
