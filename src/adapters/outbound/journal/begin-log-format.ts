import { createHash } from 'node:crypto';
import { closeSync, fsyncSync, openSync, readSync, write, writeSync } from 'node:fs';
import { promisify } from 'node:util';
import type { Owner } from './journal-owners.js';

// The begin log's format (see BeginLog): frames, each a header and a payload.
const writeOnPool = promisify(write);

export const MAGIC = Buffer.from('MFJL');
/** magic (4), kind (1), unused (3), payload length (4), the payload's sha256, first 8 bytes. */
export const HEADER = 20;
/** An owner frame (pid, instance, host as JSON) fits in this many bytes. */
const OWNER_PROBE = 4096;
export type Kind = 'owner' | 'begin' | 'commit' | 'gone';
const KIND_BYTE: Record<Kind, number> = { owner: 0x4f, begin: 0x42, commit: 0x43, gone: 0x47 };

/** A begin's payload: its id, a newline, then the bytes its image file is to hold. */
export function beginPayload(id: string, imageFileBytes: Buffer): Buffer {
  return Buffer.concat([Buffer.from(`${id}\n`), imageFileBytes]);
}

/** A begin payload's id, and where in it the image file's bytes start. */
export function splitBegin(payload: Buffer): { id: string; at: number } {
  const newline = payload.indexOf(0x0a);
  return { id: payload.subarray(0, newline).toString('latin1'), at: newline + 1 };
}

export function frame(kind: Kind, payload: Buffer): Buffer {
  const header = Buffer.alloc(HEADER);
  MAGIC.copy(header, 0);
  header[4] = KIND_BYTE[kind];
  header.writeUInt32BE(payload.byteLength, 8);
  checksum(payload).copy(header, 12);
  return Buffer.concat([header, payload]);
}

/** The whole frames at the start of a segment; a torn or foreign one ends it. */
export function* frames(bytes: Buffer): Iterable<{ kind: Kind; payload: Buffer; end: number }> {
  const kinds = new Map(Object.entries(KIND_BYTE).map(([kind, byte]) => [byte, kind as Kind]));
  for (let at = 0; at + HEADER <= bytes.byteLength; ) {
    const kind = kinds.get(bytes[at + 4]!);
    const end = at + HEADER + bytes.readUInt32BE(at + 8);
    if (!bytes.subarray(at, at + 4).equals(MAGIC) || kind === undefined || end > bytes.byteLength) return;
    const payload = bytes.subarray(at + HEADER, end);
    if (!checksum(payload).equals(bytes.subarray(at + 12, at + HEADER))) return;
    yield { kind, payload, end };
    at = end;
  }
}

function checksum(payload: Buffer): Buffer {
  return createHash('sha256').update(payload).digest().subarray(0, 8);
}

export function parseOwner(payload: Buffer): Owner | undefined {
  try {
    const owner = JSON.parse(payload.toString('utf8')) as Partial<Owner>;
    return typeof owner.pid === 'number' && typeof owner.instance === 'string' ? (owner as Owner) : undefined;
  } catch {
    return undefined;
  }
}

/** The owner named by a segment's first frame, reading no more than that frame; null when it is not whole or not an owner. */
export function readOwner(file: string): Owner | null {
  const fd = openSync(file, 'r');
  try {
    const head = Buffer.alloc(OWNER_PROBE);
    const [first] = frames(head.subarray(0, readSync(fd, head, 0, OWNER_PROBE, 0)));
    return first?.kind === 'owner' ? (parseOwner(first.payload) ?? null) : null;
  } finally {
    closeSync(fd);
  }
}

export function writeAll(fd: number, bytes: Buffer, position: number): void {
  for (let done = 0; done < bytes.byteLength; ) done += writeSync(fd, bytes, done, bytes.byteLength - done, position + done);
}

export async function writeAllOnPool(fd: number, bytes: Buffer, position: number): Promise<void> {
  for (let done = 0; done < bytes.byteLength; ) done += (await writeOnPool(fd, bytes, done, bytes.byteLength - done, position + done)).bytesWritten;
}

export function syncPathNow(path: string): void {
  const fd = openSync(path, 'r');
  try {
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
}
