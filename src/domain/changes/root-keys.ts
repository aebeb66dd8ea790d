import type { ContentHasher } from '../ports/content-hasher.port.js';
import type { EntryChange } from '../ports/change-feed.port.js';
import type { Root } from '../roots.js';

/** The longest name a path segment may have, in bytes (NAME_MAX). */
const MAX_SEGMENT_BYTES = 255;
/** A change names one entry (a write) or two (a move); anything beyond is not one of ours. */
const MAX_PATHS = 2;
const MAX_DEPTH = 2048;
const KEY = /^[0-9a-f]{16}$/;
const utf8 = new TextEncoder();

/**
 * Names a root across replicas without naming its host path: the first 16 hex digits of the
 * sha256 of its directory (the same rule as the journal's Snapshots.rootKey), so every replica
 * serving the same directory agrees, under whatever root name. Cache: keyed by the Root object
 * (a WeakMap, so roots a client withdrew are forgotten with it).
 */
export class RootKeys {
  private readonly keys = new WeakMap<Root, string>();

  constructor(private readonly hasher: ContentHasher) {}

  of(root: Root): string {
    let key = this.keys.get(root);
    if (key === undefined) {
      const hash = this.hasher.create('sha256');
      hash.update(new TextEncoder().encode(root.hostPath));
      key = hash.digest().slice(0, 16);
      this.keys.set(root, key);
    }
    return key;
  }
}

/**
 * A change received from another replica, checked as foreign input: a root key and at most two
 * in-root paths of plain segments. Security: anything else (a host path, '..', '.', an empty or
 * over-long segment, a '/' or NUL inside one) is refused, so a forged message can name nothing
 * outside a root and a receiver only ever looks its key up among the roots it serves.
 */
export function entryChangeFrom(value: unknown): EntryChange | null {
  if (typeof value !== 'object' || value === null) return null;
  const { rootKey, paths } = value as { rootKey?: unknown; paths?: unknown };
  if (typeof rootKey !== 'string' || !KEY.test(rootKey)) return null;
  if (!Array.isArray(paths) || paths.length === 0 || paths.length > MAX_PATHS) return null;
  for (const path of paths) {
    if (!Array.isArray(path) || path.length > MAX_DEPTH || !path.every(isPlainSegment)) return null;
  }
  return { rootKey, paths: paths as string[][] };
}

function isPlainSegment(segment: unknown): boolean {
  return (
    typeof segment === 'string' &&
    segment !== '' &&
    segment !== '.' &&
    segment !== '..' &&
    !segment.includes('/') &&
    !segment.includes('\0') &&
    utf8.encode(segment).length <= MAX_SEGMENT_BYTES
  );
}
