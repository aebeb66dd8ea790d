import { closeSync, read, readSync } from 'node:fs';
import { promisify } from 'node:util';
import type { EntryStat, LineSeek, ReadableFile } from '../../../domain/ports/file-system.port.js';
import type { RootPath } from '../../../domain/roots.js';
import type { LineIndexCache } from './line-index.js';
import { translate } from './node-errors.js';

const readAsync = promisify(read);
/**
 * Fast path: a read this small (one page-cache copy) costs less done synchronously than one
 * libuv thread-pool hop; larger reads go to the pool so the event loop stays free.
 */
const SYNC_READ_MAX = 64 * 1024;

/** A verified, open regular file; reads are positional and bounded by the size seen at open time. */
export class NodeReadableFile implements ReadableFile {
  private closed = false;

  constructor(
    private readonly fd: number,
    readonly stat: EntryStat,
    private readonly path: RootPath,
    private readonly lines: LineIndexCache,
  ) {}

  async seekLine(line: number): Promise<LineSeek> {
    try {
      return await this.lines.seek(this.fd, line);
    } catch (error) {
      throw translate(error, this.path, 'file');
    }
  }

  async read(position: number, length: number): Promise<Uint8Array> {
    const wanted = Math.max(0, Math.min(length, this.stat.size - position));
    const buffer = Buffer.allocUnsafe(wanted);
    let filled = 0;
    try {
      while (filled < wanted) {
        const size = wanted - filled;
        const bytesRead =
          size <= SYNC_READ_MAX
            ? readSync(this.fd, buffer, filled, size, position + filled)
            : (await readAsync(this.fd, buffer, filled, size, position + filled)).bytesRead;
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
    closeSync(this.fd);
  }
}
