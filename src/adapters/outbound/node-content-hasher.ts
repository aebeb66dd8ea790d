import { createHash } from 'node:crypto';
import { injectable } from 'inversify';
import type { ContentHasher, HashAlgorithm, IncrementalHash } from '../../domain/ports/content-hasher.port.js';

/** ContentHasher on node:crypto; the caller feeds chunks, so no file is ever held whole. */
@injectable()
export class NodeContentHasher implements ContentHasher {
  create(algorithm: HashAlgorithm): IncrementalHash {
    const hash = createHash(algorithm);
    return {
      update: (chunk) => {
        hash.update(chunk);
      },
      digest: () => hash.digest('hex'),
    };
  }
}
