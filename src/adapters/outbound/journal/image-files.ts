import { closeSync, fstatSync, openSync, readSync } from 'node:fs';
import { open, readFile } from 'node:fs/promises';
import type { BeforeImage } from '../../../domain/ports/change-journal.port.js';

/** How much of an image file is read to find its manifest line when only its size is wanted. */
const MANIFEST_PROBE = 64 * 1024;

interface ManifestEntry {
  readonly relativePath: string;
  readonly kind: 'file' | 'directory';
  /** Permission bits; every image written so far has them. One without is read with the modes an entry then got (0644, 0755). */
  readonly mode?: number;
  /** Where a file's bytes are, after the manifest line (files only). */
  readonly offset?: number;
  readonly length?: number;
}

interface Header {
  readonly manifest: ManifestEntry[] | null;
  readonly record?: unknown;
}

/**
 * A before-image on disk, one file per change: a JSON header line (the manifest, and optionally the
 * record it belongs to, so that one fsync makes both durable), then the bytes of every file in it.
 * Shared by the journal stores that keep images in journal.dir (the disk store, and the Redis record
 * index, whose replicas share that directory). `image` null: the file holds only the record.
 */
export async function writeImageFile(file: string, image: BeforeImage | null, record?: unknown): Promise<number> {
  const { bytes, imageBytes } = encodeImageFile(image, record);
  // O_EXCL: an image is written once, under a fresh id; fsync'd before the change it guards is made.
  await writeSynced(file, bytes, 'wx');
  return imageBytes;
}

/** The bytes of an image file (see writeImageFile), and how many of them are file content. */
export function encodeImageFile(image: BeforeImage | null, record?: unknown): { bytes: Buffer; imageBytes: number } {
  const { line, blobs, imageBytes } = imageFileParts(image, record);
  return { bytes: Buffer.concat([Buffer.from(line), ...blobs]), imageBytes };
}

/** How many bytes encodeImageFile would make, without copying the content. */
export function imageFileLength(image: BeforeImage | null, record?: unknown): number {
  const { line, imageBytes } = imageFileParts(image, record);
  return Buffer.byteLength(line) + imageBytes;
}

function imageFileParts(image: BeforeImage | null, record: unknown): { line: string; blobs: Uint8Array[]; imageBytes: number } {
  const manifest: ManifestEntry[] = [];
  const blobs: Uint8Array[] = [];
  let offset = 0;
  for (const entry of image?.entries ?? []) {
    if (entry.content === undefined) {
      manifest.push({ relativePath: entry.relativePath, kind: entry.kind, mode: entry.mode });
      continue;
    }
    manifest.push({ relativePath: entry.relativePath, kind: entry.kind, mode: entry.mode, offset, length: entry.content.byteLength });
    blobs.push(entry.content);
    offset += entry.content.byteLength;
  }
  const header: Header = { manifest: image === null ? null : manifest, ...(record === undefined ? {} : { record }) };
  return { line: `${JSON.stringify(header)}\n`, blobs, imageBytes: offset };
}

/** The image in `file`, or null when there is none (never written, dropped or evicted). */
export async function readImageFile(file: string): Promise<BeforeImage | null> {
  let bytes: Buffer;
  try {
    bytes = await readFile(file);
  } catch {
    return null;
  }
  return decodeImageFile(bytes);
}

/** The image in an image file's bytes (see writeImageFile). */
export function decodeImageFile(bytes: Buffer): BeforeImage | null {
  const newline = bytes.indexOf(0x0a);
  const manifest = manifestOf(JSON.parse(bytes.subarray(0, newline).toString('utf8')) as Header | ManifestEntry[]);
  if (manifest === null) return null;
  const body = newline + 1;
  return {
    entries: manifest.map(({ offset, length, mode, ...rest }) => {
      const entry = { ...rest, mode: mode ?? (rest.kind === 'directory' ? 0o755 : 0o644) };
      return offset === undefined ? entry : { ...entry, content: Uint8Array.from(bytes.subarray(body + offset, body + offset + (length ?? 0))) };
    }),
  };
}

/** The record written with an image (writeImageFile's `record`), read from its header line only; null when none or unreadable. */
export function readImageRecord(file: string): unknown {
  const head = readHead(file);
  if (head === null) return null;
  try {
    const header = JSON.parse(head.line) as Header | ManifestEntry[];
    return Array.isArray(header) ? null : (header.record ?? null);
  } catch {
    // Torn by a crash while it was written (before its change was made): no record.
    return null;
  }
}

/** Bytes of files an image holds: its size less the manifest line (only the head is read, not the content); 0 when absent. */
export function imageFileSize(file: string): number {
  const head = readHead(file);
  return head === null ? 0 : head.size - Buffer.byteLength(head.line) - 1;
}

/** The first line of a file (within MANIFEST_PROBE bytes) and the file's size; null when it cannot be read. */
export function readHead(file: string): { line: string; size: number } | null {
  let fd: number | undefined;
  try {
    fd = openSync(file, 'r');
    const size = fstatSync(fd).size;
    // A folder's manifest can be long: read on, a probe at a time, until the line ends (or the file does).
    const chunks: Buffer[] = [];
    for (let position = 0; position < size; ) {
      const chunk = Buffer.alloc(Math.min(size - position, MANIFEST_PROBE));
      const read = chunk.subarray(0, readSync(fd, chunk, 0, chunk.byteLength, position));
      if (read.byteLength === 0) break;
      const newline = read.indexOf(0x0a);
      chunks.push(newline < 0 ? read : read.subarray(0, newline));
      if (newline >= 0) return { line: Buffer.concat(chunks).toString('utf8'), size };
      position += read.byteLength;
    }
    return { line: Buffer.concat(chunks).toString('utf8'), size: size + 1 };
  } catch {
    return null;
  } finally {
    if (fd !== undefined) closeSync(fd);
  }
}

function manifestOf(header: Header | ManifestEntry[]): ManifestEntry[] | null {
  // An image written before the header carried the record was its manifest alone.
  return Array.isArray(header) ? header : header.manifest;
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

/** fsyncs a file, or a directory (making its entries, names made, renamed or removed, durable), by its path. */
export async function syncPath(path: string): Promise<void> {
  const handle = await open(path, 'r');
  try {
    await handle.sync();
  } finally {
    await handle.close();
  }
}
