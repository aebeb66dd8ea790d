import { closeSync, fstatSync, openSync, readSync } from 'node:fs';
import { open, readFile } from 'node:fs/promises';
import type { BeforeImage } from '../../../domain/ports/change-journal.port.js';

/** How much of an image file is read to find its manifest line when only its size is wanted. */
const MANIFEST_PROBE = 64 * 1024;

interface ManifestEntry {
  readonly relativePath: string;
  readonly kind: 'file' | 'directory';
  readonly mode: number;
  /** Where a file's bytes are, after the manifest line (files only). */
  readonly offset?: number;
  readonly length?: number;
}

/**
 * A before-image on disk, one file per change: a JSON manifest line, then the bytes of every file
 * in it. Shared by the journal stores that keep images in journal.dir (the disk store, and the
 * Redis record index, whose replicas share that directory).
 */
export async function writeImageFile(file: string, image: BeforeImage): Promise<number> {
  const manifest: ManifestEntry[] = [];
  const blobs: Uint8Array[] = [];
  let offset = 0;
  for (const entry of image.entries) {
    if (entry.content === undefined) {
      manifest.push({ relativePath: entry.relativePath, kind: entry.kind, mode: entry.mode });
      continue;
    }
    manifest.push({ relativePath: entry.relativePath, kind: entry.kind, mode: entry.mode, offset, length: entry.content.byteLength });
    blobs.push(entry.content);
    offset += entry.content.byteLength;
  }
  // O_EXCL: an image is written once, under a fresh id; fsync'd before the change it guards is made.
  await writeSynced(file, Buffer.concat([Buffer.from(`${JSON.stringify(manifest)}\n`), ...blobs]), 'wx');
  return offset;
}

/** The image in `file`, or null when there is none (never written, dropped or evicted). */
export async function readImageFile(file: string): Promise<BeforeImage | null> {
  let bytes: Buffer;
  try {
    bytes = await readFile(file);
  } catch {
    return null;
  }
  const newline = bytes.indexOf(0x0a);
  const manifest = JSON.parse(bytes.subarray(0, newline).toString('utf8')) as ManifestEntry[];
  const body = newline + 1;
  return {
    entries: manifest.map(({ offset, length, ...rest }) =>
      offset === undefined ? rest : { ...rest, content: Uint8Array.from(bytes.subarray(body + offset, body + offset + (length ?? 0))) },
    ),
  };
}

/** Bytes of files an image holds: its size less the manifest line (only the head is read, not the content); 0 when absent. */
export function imageFileSize(file: string): number {
  let fd: number | undefined;
  try {
    fd = openSync(file, 'r');
    const size = fstatSync(fd).size;
    const head = Buffer.alloc(Math.min(size, MANIFEST_PROBE));
    const newline = head.subarray(0, readSync(fd, head, 0, head.byteLength, 0)).indexOf(0x0a);
    return newline < 0 ? size : size - newline - 1;
  } catch {
    return 0;
  } finally {
    if (fd !== undefined) closeSync(fd);
  }
}

/** Writes `bytes` to `file` and fsyncs it before closing. */
export async function writeSynced(file: string, bytes: Uint8Array, flags = 'w'): Promise<void> {
  const handle = await open(file, flags, 0o600);
  try {
    await handle.writeFile(bytes);
    await handle.sync();
  } finally {
    await handle.close();
  }
}

/** Makes the entries of `dir` (names made, renamed or removed) durable. */
export async function syncDirectory(dir: string): Promise<void> {
  const handle = await open(dir, 'r');
  try {
    await handle.sync();
  } finally {
    await handle.close();
  }
}
