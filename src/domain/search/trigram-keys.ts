/**
 * Trigrams as 24-bit integers: three bytes of a file's UTF-8, ASCII letters lowered. A query's
 * trigrams (three UTF-16 units of decoded text) become the byte trigrams of their UTF-8, all of them
 * required: text that holds the characters holds their bytes, in a row. grep decodes a file's bytes
 * with replacement, so a trigram holding U+FFFD or half a surrogate pair may stand for bytes that are
 * not its UTF-8: it says nothing (undefined: any file), never too much.
 */
export type TrigramKey = number;

const LOWERED = new Uint8Array(256).map((_, byte) => (byte >= 0x41 && byte <= 0x5a ? byte + 0x20 : byte));

export function keyOfBytes(first: number, second: number, third: number): TrigramKey {
  return (LOWERED[first]! << 16) | (LOWERED[second]! << 8) | LOWERED[third]!;
}

/** The byte-trigram keys a query trigram requires, or undefined when it cannot say. */
export function keysOfTrigram(trigram: string): TrigramKey[] | undefined {
  for (let i = 0; i < trigram.length; i += 1) {
    const unit = trigram.charCodeAt(i);
    if (unit === 0xfffd || (unit >= 0xd800 && unit <= 0xdfff)) return undefined;
  }
  const bytes = new TextEncoder().encode(trigram);
  const keys: TrigramKey[] = [];
  for (let i = 0; i + 3 <= bytes.length; i += 1) keys.push(keyOfBytes(bytes[i]!, bytes[i + 1]!, bytes[i + 2]!));
  return keys;
}

/**
 * Finds the distinct keys of a text. One per index: its scratch (a bit per possible key, 2 MiB) is
 * reused file after file and cleared key by key, so a file costs its length, not the key space.
 */
export class TrigramExtractor {
  private readonly seen = new Uint8Array(1 << 21);
  private found = new Uint32Array(1 << 12);

  /** The distinct keys of `bytes`, in no order; the array is reused by the next call. */
  keysOf(bytes: Uint8Array): Uint32Array {
    const { seen } = this;
    let count = 0;
    if (bytes.length >= 3) {
      let key = (LOWERED[bytes[0]!]! << 8) | LOWERED[bytes[1]!]!;
      for (let i = 2; i < bytes.length; i += 1) {
        key = ((key << 8) | LOWERED[bytes[i]!]!) & 0xffffff;
        const bit = 1 << (key & 7);
        const at = key >>> 3;
        if ((seen[at]! & bit) !== 0) continue;
        seen[at] = seen[at]! | bit;
        if (count === this.found.length) this.grow();
        this.found[count] = key;
        count += 1;
      }
    }
    const keys = this.found.subarray(0, count);
    for (const key of keys) seen[key >>> 3] = 0;
    return keys;
  }

  private grow(): void {
    const larger = new Uint32Array(this.found.length * 2);
    larger.set(this.found);
    this.found = larger;
  }
}
