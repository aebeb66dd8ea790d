import type { ArchiveBytes } from './archive-bytes.js';

export type TarEntryType = 'file' | 'directory' | 'symlink' | 'hardlink' | 'other';

/** One member of a tar archive as its headers describe it; names are raw (not yet judged). */
export interface TarEntry {
  readonly name: string;
  readonly type: TarEntryType;
  /** Where the member's bytes start in the (uncompressed) archive, and how many there are. */
  readonly offset: number;
  readonly size: number;
  readonly mode: number;
  readonly uid: number;
  readonly gid: number;
  readonly uname: string;
  readonly gname: string;
  readonly modifiedAt: Date;
  readonly linkName: string;
}

const BLOCK = 512;
const utf8 = new TextDecoder('utf-8');

/** Raised for bytes that are not a tar archive (bad checksum, truncated member); the caller words it for the client. */
export class NotATarArchive extends Error {}

function text(block: Uint8Array, start: number, length: number): string {
  const field = block.subarray(start, start + length);
  const end = field.indexOf(0);
  return utf8.decode(end < 0 ? field : field.subarray(0, end));
}

/** Octal, or GNU base-256 when the first byte's high bit is set (sizes past 8 GiB, negative times). */
function numeric(block: Uint8Array, start: number, length: number): number {
  if ((block[start] & 0x80) !== 0) {
    let value = block[start] & 0x3f;
    for (let i = start + 1; i < start + length; i += 1) value = value * 256 + block[i];
    return (block[start] & 0x40) !== 0 ? -value : value;
  }
  const digits = text(block, start, length).trim();
  if (digits === '') return 0;
  if (!/^[0-7]+$/.test(digits)) throw new NotATarArchive(`bad number field at ${start}`);
  return parseInt(digits, 8);
}

function checksumMatches(block: Uint8Array): boolean {
  let sum = 0;
  for (let i = 0; i < BLOCK; i += 1) sum += i >= 148 && i < 156 ? 0x20 : block[i];
  return sum === numeric(block, 148, 8);
}

/** PAX records: `<length> <key>=<value>\n`, the length counting the whole record. */
function paxRecords(data: Uint8Array): Map<string, string> {
  const records = new Map<string, string>();
  let at = 0;
  while (at < data.length) {
    const space = data.indexOf(0x20, at);
    if (space < 0) break;
    const length = parseInt(utf8.decode(data.subarray(at, space)), 10);
    if (!Number.isSafeInteger(length) || length <= space - at) break;
    const record = utf8.decode(data.subarray(space + 1, at + length - 1));
    const equals = record.indexOf('=');
    if (equals > 0) records.set(record.slice(0, equals), record.slice(equals + 1));
    at += length;
  }
  return records;
}

function typeOf(flag: string): TarEntryType {
  switch (flag) {
    case '0':
    case '':
    case '7':
      return 'file';
    case '5':
      return 'directory';
    case '2':
      return 'symlink';
    case '1':
      return 'hardlink';
    default:
      return 'other';
  }
}

/**
 * Reads every header of a ustar / GNU / PAX archive once, keeping each member's offset and size
 * (its bytes are read later, by offset). Extension headers (PAX 'x', GNU 'L'/'K') apply to the
 * member that follows; global PAX headers ('g') and GNU volume/sparse extras are passed over.
 */
export async function readTarHeaders(bytes: ArchiveBytes): Promise<TarEntry[]> {
  const entries: TarEntry[] = [];
  let position = 0;
  let pending = new Map<string, string>();
  while (position + BLOCK <= bytes.size) {
    const block = await bytes.read(position, BLOCK);
    if (block.every((byte) => byte === 0)) break;
    if (!checksumMatches(block)) throw new NotATarArchive(`bad header checksum at byte ${position}`);
    const flag = String.fromCharCode(block[156]).replace('\0', '');
    const headerSize = numeric(block, 124, 12);
    const offset = position + BLOCK;
    position = offset + Math.ceil(headerSize / BLOCK) * BLOCK;
    if (position > bytes.size) throw new NotATarArchive(`member at byte ${offset - BLOCK} runs past the end`);
    if (flag === 'x' || flag === 'L' || flag === 'K') {
      const data = await bytes.read(offset, headerSize);
      if (flag === 'x') for (const [key, value] of paxRecords(data)) pending.set(key, value);
      else pending.set(flag === 'L' ? 'path' : 'linkpath', text(data, 0, data.length));
      continue;
    }
    if (flag === 'g' || flag === 'V') continue;
    const ustar = text(block, 257, 6) === 'ustar';
    const prefix = ustar ? text(block, 345, 155) : '';
    const headerName = prefix === '' ? text(block, 0, 100) : `${prefix}/${text(block, 0, 100)}`;
    const paxSize = pending.get('size');
    const size = paxSize !== undefined && /^\d+$/.test(paxSize) ? Number(paxSize) : headerSize;
    const mtime = Number(pending.get('mtime') ?? numeric(block, 136, 12));
    entries.push({
      name: pending.get('path') ?? headerName,
      type: typeOf(flag),
      offset,
      size: typeOf(flag) === 'file' ? size : 0,
      mode: numeric(block, 100, 8) & 0o7777,
      uid: Number(pending.get('uid') ?? numeric(block, 108, 8)),
      gid: Number(pending.get('gid') ?? numeric(block, 116, 8)),
      uname: pending.get('uname') ?? text(block, 265, 32),
      gname: pending.get('gname') ?? text(block, 297, 32),
      modifiedAt: new Date(Number.isFinite(mtime) ? mtime * 1000 : 0),
      linkName: pending.get('linkpath') ?? text(block, 157, 100),
    });
    // A PAX size may exceed the header's (over 8 GiB): the member's bytes are that long.
    if (paxSize !== undefined && size !== headerSize) position = offset + Math.ceil(size / BLOCK) * BLOCK;
    pending = new Map();
  }
  return entries;
}
