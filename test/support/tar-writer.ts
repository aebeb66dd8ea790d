import { gzipSync } from 'node:zlib';

/** One member for a test archive; names and link texts are written as given (hostile ones included). */
export interface TarMember {
  readonly name: string;
  readonly type: 'file' | 'directory' | 'symlink' | 'hardlink' | 'fifo';
  readonly content?: string | Uint8Array;
  readonly linkName?: string;
  readonly mode?: number;
  readonly mtime?: number;
}

const BLOCK = 512;
const FLAGS = { file: '0', hardlink: '1', symlink: '2', directory: '5', fifo: '6' } as const;
const utf8 = new TextEncoder();

function octal(value: number, length: number): string {
  return `${value.toString(8).padStart(length - 1, '0')}\0`;
}

function header(name: string, flag: string, size: number, member: Partial<TarMember>): Uint8Array {
  const block = new Uint8Array(BLOCK);
  const put = (text: string | Uint8Array, at: number, length: number) => block.set((typeof text === 'string' ? utf8.encode(text) : text).subarray(0, length), at);
  put(name, 0, 100);
  put(octal(member.mode ?? (flag === '5' ? 0o755 : 0o644), 8), 100, 8);
  put(octal(1000, 8), 108, 8);
  put(octal(1000, 8), 116, 8);
  put(octal(size, 12), 124, 12);
  put(octal(member.mtime ?? 1_700_000_000, 12), 136, 12);
  put('        ', 148, 8);
  put(flag, 156, 1);
  put(member.linkName ?? '', 157, 100);
  put('ustar\x0000', 257, 8);
  put('builder', 265, 32);
  put('builders', 297, 32);
  const sum = block.reduce((total, byte) => total + byte, 0);
  put(`${sum.toString(8).padStart(6, '0')}\0 `, 148, 8);
  return block;
}

function padded(data: Uint8Array): Uint8Array {
  const out = new Uint8Array(Math.ceil(data.length / BLOCK) * BLOCK);
  out.set(data);
  return out;
}

function paxRecord(key: string, value: string): string {
  const body = ` ${key}=${value}\n`;
  let length = body.length + 1;
  while (`${length}${body}`.length !== length) length += 1;
  return `${length}${body}`;
}

/** A ustar archive (PAX headers for names or link texts past 100 bytes), gzipped when asked. */
export function tarArchive(members: readonly TarMember[], options: { gzip?: boolean } = {}): Uint8Array {
  const parts: Uint8Array[] = [];
  for (const member of members) {
    const long = [['path', member.name] as const, ['linkpath', member.linkName ?? ''] as const].filter(([, value]) => utf8.encode(value).length > 99);
    if (long.length > 0) {
      const records = utf8.encode(long.map(([key, value]) => paxRecord(key, value)).join(''));
      parts.push(header('PaxHeader', 'x', records.length, {}), padded(records));
    }
    const content = member.content === undefined ? new Uint8Array(0) : typeof member.content === 'string' ? utf8.encode(member.content) : member.content;
    const name = member.type === 'directory' && !member.name.endsWith('/') ? `${member.name}/` : member.name;
    parts.push(header(name, FLAGS[member.type], content.length, member), padded(content));
  }
  parts.push(new Uint8Array(BLOCK * 2));
  const total = parts.reduce((sum, part) => sum + part.length, 0);
  const out = new Uint8Array(total);
  let at = 0;
  for (const part of parts) {
    out.set(part, at);
    at += part.length;
  }
  return options.gzip ? new Uint8Array(gzipSync(out)) : out;
}
