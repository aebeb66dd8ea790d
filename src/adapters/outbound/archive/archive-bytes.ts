import { open, type FileHandle } from 'node:fs/promises';
import { gunzip } from 'node:zlib';
import { promisify } from 'node:util';

const gunzipAsync = promisify(gunzip);

/** The uncompressed bytes of an archive, read by position. */
export interface ArchiveBytes {
  readonly size: number;
  read(position: number, length: number): Promise<Uint8Array>;
  close(): Promise<void>;
}

/** A .tar.gz is inflated once into memory, up to this many bytes (gzip has no random access). */
export const MAX_INFLATED_BYTES = 512 * 1024 * 1024;

/**
 * Opens the archive file once and keeps it open: a file replaced on disk later is not seen, so
 * the index and the bytes it points at always belong together.
 */
export async function openArchiveBytes(hostPath: string): Promise<ArchiveBytes> {
  const handle = await open(hostPath, 'r');
  try {
    const { size } = await handle.stat();
    const magic = new Uint8Array(2);
    await handle.read(magic, 0, 2, 0);
    if (size >= 2 && magic[0] === 0x1f && magic[1] === 0x8b) {
      const inflated = await gunzipAsync(await handle.readFile(), { maxOutputLength: MAX_INFLATED_BYTES });
      await handle.close();
      return inMemoryBytes(new Uint8Array(inflated.buffer, inflated.byteOffset, inflated.length));
    }
    return fileBytes(handle, size);
  } catch (error) {
    await handle.close().catch(() => undefined);
    throw error;
  }
}

function clamp(size: number, position: number, length: number): number {
  return Math.max(0, Math.min(length, size - position));
}

function fileBytes(handle: FileHandle, size: number): ArchiveBytes {
  return {
    size,
    async read(position, length) {
      const buffer = new Uint8Array(clamp(size, position, length));
      let filled = 0;
      while (filled < buffer.length) {
        const { bytesRead } = await handle.read(buffer, filled, buffer.length - filled, position + filled);
        if (bytesRead === 0) break;
        filled += bytesRead;
      }
      return buffer.subarray(0, filled);
    },
    close: () => handle.close(),
  };
}

function inMemoryBytes(data: Uint8Array): ArchiveBytes {
  return {
    size: data.length,
    read: async (position, length) => data.slice(position, position + clamp(data.length, position, length)),
    close: async () => undefined,
  };
}
