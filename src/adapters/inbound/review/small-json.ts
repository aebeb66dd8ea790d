import type { IncomingMessage } from 'node:http';
import { DomainError } from '../../../domain/errors.js';

/** An undo selection is at most 500 ids of 17 characters: this leaves room and no more. */
const MAX_BODY_BYTES = 64 * 1024;

/** A small JSON request body, or INVALID_ARGUMENT (too large, or not JSON). */
export async function readSmallJson(request: IncomingMessage): Promise<unknown> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of request) {
    size += (chunk as Buffer).byteLength;
    // Security: stop reading past the bound, so a large body costs no memory.
    if (size > MAX_BODY_BYTES) throw new DomainError('INVALID_ARGUMENT', `the request body is over ${MAX_BODY_BYTES} bytes`);
    chunks.push(chunk as Buffer);
  }
  try {
    return JSON.parse(Buffer.concat(chunks).toString('utf8'));
  } catch {
    throw new DomainError('INVALID_ARGUMENT', 'the request body is not JSON');
  }
}
