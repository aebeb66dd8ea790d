export type HashAlgorithm = 'md5' | 'sha1' | 'sha256';

export const HASH_ALGORITHMS: readonly HashAlgorithm[] = ['md5', 'sha1', 'sha256'];

export interface IncrementalHash {
  update(chunk: Uint8Array): void;
  /** Lower-case hex. */
  digest(): string;
}

export interface ContentHasher {
  create(algorithm: HashAlgorithm): IncrementalHash;
}
