import type { FileHandle } from 'node:fs/promises';
import type { EntryStat, ReadableFile } from '../../../domain/ports/file-system.port.js';
import type { RootPath } from '../../../domain/roots.js';
import { translate } from './node-errors.js';

/** A verified, open regular file; reads are positional and bounded by the size seen at open time. */
export class NodeReadableFile implements ReadableFile {
  private closed = false;

  constructor(
    private readonly handle: FileHandle,
    readonly stat: EntryStat,
    private readonly path: RootPath,
  ) {}

  async read(position: number, length: number): Promise<Uint8Array> {
    const wanted = Math.max(0, Math.min(length, this.stat.size - position));
    const buffer = Buffer.alloc(wanted);
    let filled = 0;
    try {
      while (filled < wanted) {
        const { bytesRead } = await this.handle.read(buffer, filled, wanted - filled, position + filled);
        if (bytesRead === 0) break;
        filled += bytesRead;
      }
    } catch (error) {
      throw translate(error, this.path, 'file');
    }
    return buffer.subarray(0, filled);
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    await this.handle.close();
  }
}
