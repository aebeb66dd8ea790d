import type { EntryStat, ReadableFile } from '../../../src/domain/ports/file-system.port.js';
import {
  STREAM_CHUNK_BYTES,
  decodeContent,
  formatSize,
  looksBinary,
  readLineWindow,
  readRange,
  toBase64,
  utf8Length,
} from '../../../src/domain/tools/file-text.js';

/** A ReadableFile over bytes that records every read, so tests can check how a file was consumed. */
class RecordingFile implements ReadableFile {
  readonly reads: Array<{ position: number; length: number }> = [];
  readonly stat: EntryStat;

  constructor(private readonly bytes: Uint8Array) {
    this.stat = { name: 'f', kind: 'file', size: bytes.length, modifiedAt: new Date(0), permissions: 0o644, uid: 0, gid: 0, inode: 1 };
  }

  async read(position: number, length: number): Promise<Uint8Array> {
    this.reads.push({ position, length });
    return this.bytes.slice(position, position + length);
  }

  async close(): Promise<void> {}
}

const text = (value: string) => new TextEncoder().encode(value);
const decode = (bytes: Uint8Array) => new TextDecoder().decode(bytes);

describe('formatSize', () => {
  it.each([
    [0, '0B'],
    [100, '100B'],
    [500, '500B'],
    [1024, '1KB'],
    [1536, '1.5KB'],
    [1048576, '1MB'],
    [Math.round(5.2 * 1048576), '5.2MB'],
    [3 * 1024 ** 3, '3GB'],
    [5 * 1024 ** 4, '5120GB'],
  ])('%d bytes -> %s', (bytes, expected) => {
    expect(formatSize(bytes)).toBe(expected);
  });
});

describe('looksBinary', () => {
  it('is true for a NUL in the first 8 KB only', () => {
    expect(looksBinary(new Uint8Array([65, 0, 66]))).toBe(true);
    expect(looksBinary(text('plain text'))).toBe(false);
    const late = new Uint8Array(9000).fill(65);
    late[8500] = 0;
    expect(looksBinary(late)).toBe(false);
  });
});

describe('decodeContent', () => {
  it('returns text for valid UTF-8 and base64 for binary or invalid UTF-8', () => {
    expect(decodeContent(text('héllo'), false)).toEqual({ content: 'héllo', encoding: 'utf-8' });
    expect(decodeContent(new Uint8Array([0, 1, 2]), true)).toEqual({ content: 'AAEC', encoding: 'base64' });
    expect(decodeContent(new Uint8Array([0xc3]), false)).toEqual({ content: 'ww==', encoding: 'base64' });
  });

  it('encodes large buffers to base64 losslessly', () => {
    const bytes = Uint8Array.from({ length: 100_000 }, (_, i) => i % 256);
    expect(Uint8Array.from(atob(toBase64(bytes)), (c) => c.charCodeAt(0))).toEqual(bytes);
  });
});

describe('readRange', () => {
  it('reads the exact range in bounded chunks and stops at end of file', async () => {
    const file = new RecordingFile(Uint8Array.from({ length: 100_000 }, (_, i) => i % 251));
    const bytes = await readRange(file, 10, 90_000);
    expect(bytes).toEqual(Uint8Array.from({ length: 90_000 }, (_, i) => (i + 10) % 251));
    expect(Math.max(...file.reads.map((read) => read.length))).toBeLessThanOrEqual(STREAM_CHUNK_BYTES);
    expect((await readRange(file, 99_990, 50)).length).toBe(10);
  });
});

describe('readLineWindow', () => {
  const numbered = (count: number) => Array.from({ length: count }, (_, i) => `line ${i + 1}\n`).join('');

  it('returns the requested lines with their endings and counts every line', async () => {
    const window = await readLineWindow(new RecordingFile(text(numbered(100))), 50, 5, 1_000_000);
    expect(decode(window.bytes)).toBe('line 50\nline 51\nline 52\nline 53\nline 54\n');
    expect(window).toMatchObject({ linesReturned: 5, linesTotal: 100, budgetExhausted: false });
  });

  it('keeps CRLF endings and counts a last line without newline', async () => {
    const window = await readLineWindow(new RecordingFile(text('a\r\nb\r\nc')), 2, undefined, 1_000);
    expect(decode(window.bytes)).toBe('b\r\nc');
    expect(window.linesTotal).toBe(3);
  });

  it('returns nothing past the end but still reports the total', async () => {
    const window = await readLineWindow(new RecordingFile(text(numbered(5))), 100, 10, 1_000);
    expect(window).toMatchObject({ linesReturned: 0, linesTotal: 5 });
    expect(window.bytes.length).toBe(0);
  });

  it('counts zero lines in an empty file', async () => {
    expect((await readLineWindow(new RecordingFile(new Uint8Array()), 1, 1, 10)).linesTotal).toBe(0);
  });

  it('streams a file many chunks long in bounded reads, holding only the wanted lines', async () => {
    const content = numbered(50_000);
    const file = new RecordingFile(text(content));
    expect(content.length).toBeGreaterThan(10 * STREAM_CHUNK_BYTES);
    const window = await readLineWindow(file, 49_998, 2, 1_000_000);
    expect(decode(window.bytes)).toBe('line 49998\nline 49999\n');
    expect(window.linesTotal).toBe(50_000);
    expect(file.reads.length).toBeGreaterThan(10);
    expect(file.reads.every((read) => read.length <= STREAM_CHUNK_BYTES)).toBe(true);
  });

  it('joins a line that straddles a chunk boundary', async () => {
    const long = `${'x'.repeat(STREAM_CHUNK_BYTES + 10)}\n`;
    const window = await readLineWindow(new RecordingFile(text(`a\n${long}b\n`)), 2, 1, 1_000_000);
    expect(decode(window.bytes)).toBe(long);
    expect(window.linesTotal).toBe(3);
  });

  it('stops before the line that would exceed the byte budget', async () => {
    const window = await readLineWindow(new RecordingFile(text('aaaa\nbbbb\ncccc\n')), 1, undefined, 12);
    expect(decode(window.bytes)).toBe('aaaa\nbbbb\n');
    expect(window).toMatchObject({ linesReturned: 2, linesTotal: 3, budgetExhausted: true });
  });
});

describe('utf8Length', () => {
  it('counts the bytes encodeUtf8 gives, lone surrogates as U+FFFD, without encoding', () => {
    for (const sample of ['', 'abc', 'é', '€uro', '😀 smile', 'a\ud800b', '\udc00', 'x\ud83d', '\u0001'.repeat(5)]) {
      expect(utf8Length(sample)).toBe(new TextEncoder().encode(sample).length);
    }
  });
});
