import { closeSync, read, readSync } from 'node:fs';
import { promisify } from 'node:util';
import type { EntryStat, LineSeek, ReadableFile } from '../../../domain/ports/file-system.port.js';
import type { RootPath } from '../../../domain/roots.js';
import type { LineIndexCache } from './line-index.js';
import { translate } from './node-errors.js';

const readAsync = promisify(read);
/**
 * Fast path: a file this small is read synchronously (a page-cache copy of 1 MiB costs about what
 * one libuv thread-pool hop does, and a view or an edit of an 85 KB source file made four hops).
 * A larger file is read on the pool, chunk by chunk, so a long read (a hash, a grep of a big file)
 * never holds the event loop for more than one small file. Small writes have the same bound.
 */
const SYNC_READ_MAX = 1024 * 1024;

/** A verified, open regular file; reads are positional and bounded by the size seen at open time. */
export class NodeReadableFile implements ReadableFile {
  private closed = false;
  /**
   * Security: reads queued on the thread pool name the descriptor by number. Closing it while
   * one waits would let the number be reused by the next open (another file, another root)
   * and the queued read would read that file; close waits for them instead.
   */
  private readonly inFlight = new Set<Promise<unknown>>();

  constructor(
    private readonly fd: number,
    readonly stat: EntryStat,
    private readonly path: RootPath,
    private readonly lines: LineIndexCache,
  ) {}

  async seekLine(line: number): Promise<LineSeek> {
    try {
      this.assertOpen();
      return await this.lines.seek(this.fd, line, (buffer, length, position) => this.readOnPool(buffer, 0, length, position));
    } catch (error) {
      throw translate(error, this.path, 'file');
    }
  }

  async read(position: number, length: number, into?: Uint8Array): Promise<Uint8Array> {
    const wanted = Math.max(0, Math.min(length, this.stat.size - position, into ? into.length : Number.POSITIVE_INFINITY));
    const buffer = into ?? Buffer.allocUnsafe(wanted);
    const synchronous = this.stat.size <= SYNC_READ_MAX;
    let filled = 0;
    try {
      while (filled < wanted) {
        const size = wanted - filled;
        this.assertOpen();
        const bytesRead = synchronous
          ? readSync(this.fd, buffer, filled, size, position + filled)
          : await this.readOnPool(buffer, filled, size, position + filled);
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
    await Promise.allSettled([...this.inFlight]);
    closeSync(this.fd);
  }

  private async readOnPool(buffer: Uint8Array, offset: number, length: number, position: number): Promise<number> {
    this.assertOpen();
    const pending = readAsync(this.fd, buffer, offset, length, position);
    this.inFlight.add(pending);
    try {
      return (await pending).bytesRead;
    } finally {
      this.inFlight.delete(pending);
    }
  }

  private assertOpen(): void {
    if (this.closed) throw Object.assign(new Error('file closed'), { code: 'EBADF' });
  }
}
