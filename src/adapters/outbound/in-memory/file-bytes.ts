import { DomainError, inRoot } from '../../../domain/errors.js';
import type { EntryStat, ReadableFile } from '../../../domain/ports/file-system.port.js';
import { displayPath, type RootPath } from '../../../domain/roots.js';

/** A file opened for reading: the bytes as they were at the open, like an fd on a file replaced after it. */
export function openSnapshot(stat: EntryStat, bytes: Uint8Array, path: RootPath): ReadableFile {
  let closed = false;
  return {
    stat,
    async read(position: number, length: number): Promise<Uint8Array> {
      if (closed) throw new DomainError('IO_ERROR', `I/O error (file closed): ${displayPath(path)}${inRoot(path.root.name)}`);
      return bytes.slice(position, position + length);
    },
    async close(): Promise<void> {
      closed = true;
    },
  };
}

export function concat(a: Uint8Array, b: Uint8Array): Uint8Array {
  const out = new Uint8Array(a.length + b.length);
  out.set(a, 0);
  out.set(b, a.length);
  return out;
}
