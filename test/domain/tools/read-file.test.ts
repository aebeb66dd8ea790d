import { STREAM_CHUNK_BYTES } from '../../../src/domain/tools/file-text.js';
import { ReadFile } from '../../../src/domain/tools/read-file.js';
import { domainError, fileToolsWorld, recordingReads } from './file-tools-harness.js';

const numbered = (count: number) => Array.from({ length: count }, (_, i) => `line ${i + 1}\n`).join('');
const fromBase64 = (text: string) => Uint8Array.from(atob(text), (c) => c.charCodeAt(0));

describe('ReadFile', () => {
  describe('full read', () => {
    it('E2E-007: returns the raw content and metadata, without line numbers', async () => {
      const { fs, readFile } = fileToolsWorld();
      const content = `${'0123456789'.repeat(9)}abcdefghi\n`;
      fs.seedFile('/ws/small.txt', content);
      expect(await readFile.execute({ root: 'workspace', path: 'small.txt' })).toEqual({
        path: 'small.txt',
        content,
        size: 100,
        truncated: false,
        encoding: 'utf-8',
        binary: false,
      });
    });

    it('E2E-008: refuses a file above max_full_read_size, naming both sizes', async () => {
      const { fs, readFile } = fileToolsWorld({ maxFullReadSize: 100 });
      fs.seedFile('/ws/large.txt', 'x'.repeat(500));
      const error = await domainError(readFile.execute({ root: 'workspace', path: 'large.txt' }));
      expect(error.toClientText()).toBe(
        'FILE_TOO_LARGE: file too large for full read (size: 500 bytes, limit: 100 bytes); use offset/limit parameters to read large.txt in parts (root: workspace)',
      );
    });

    it('gives exact bytes, so a size just over the limit never reads as equal to it (1,100,000 over 1 MiB)', async () => {
      const { fs, readFile } = fileToolsWorld();
      fs.seedFile('/ws/big.log', new Uint8Array(1_100_000));
      const error = await domainError(readFile.execute({ root: 'workspace', path: 'big.log' }));
      expect(error.message).toContain('(size: 1100000 bytes, limit: 1048576 bytes (1MB))');
    });

    it('writes sizes in bytes with the limit the human way too', async () => {
      const { fs, readFile } = fileToolsWorld();
      fs.seedFile('/ws/huge.log', new Uint8Array(Math.round(5.2 * 1024 * 1024)));
      const error = await domainError(readFile.execute({ root: 'workspace', path: 'huge.log' }));
      expect(error.message).toMatch(/^file too large for full read \(size: 5452595 bytes, limit: 1048576 bytes \(1MB\)\); use offset\/limit parameters/);
    });

    it('reads a small file once: the binary test looks at the content read', async () => {
      const { fs, access, settings } = fileToolsWorld();
      fs.seedFile('/ws/tiny.bin', new Uint8Array([104, 0, 105]));
      const { port, readLengths } = recordingReads(fs);

      const result = await new ReadFile(access, port, settings).execute({ root: 'workspace', path: 'tiny.bin' });
      expect(result).toMatchObject({ binary: true, encoding: 'base64', content: 'aABp' });
      expect(readLengths).toHaveLength(1);
    });

    it('reads a file of exactly max_full_read_size', async () => {
      const { fs, readFile } = fileToolsWorld({ maxFullReadSize: 100 });
      fs.seedFile('/ws/edge.txt', 'y'.repeat(100));
      expect((await readFile.execute({ root: 'workspace', path: 'edge.txt' })).content).toHaveLength(100);
    });

    it('E2E-065: follows a link inside the root', async () => {
      const { fs, readFile } = fileToolsWorld();
      fs.seedFile('/ws/real.txt', 'the real content\n');
      fs.seedSymlink('/ws/link.txt', 'real.txt');
      expect((await readFile.execute({ root: 'workspace', path: 'link.txt' })).content).toBe('the real content\n');
    });

    it('returns invalid UTF-8 as base64 without calling it binary', async () => {
      const { fs, readFile } = fileToolsWorld();
      fs.seedFile('/ws/latin1.txt', new Uint8Array([0x63, 0x61, 0x66, 0xe9]));
      expect(await readFile.execute({ root: 'workspace', path: 'latin1.txt' })).toMatchObject({
        content: 'Y2Fm6Q==',
        encoding: 'base64',
        binary: false,
      });
    });
  });

  describe('byte ranges', () => {
    it('E2E-009: returns exactly the requested bytes', async () => {
      const { fs, readFile } = fileToolsWorld();
      fs.seedFile('/ws/data.txt', 'abcdefghijklmnopqrstuvwxyz0123456789');
      expect(await readFile.execute({ root: 'workspace', path: 'data.txt', offset_bytes: 10, limit_bytes: 20 })).toEqual({
        path: 'data.txt',
        content: 'klmnopqrstuvwxyz0123',
        size: 36,
        truncated: true,
        next_offset_bytes: 30,
        encoding: 'utf-8',
        binary: false,
      });
    });

    it('E2E-013: a binary range comes back as lossless base64', async () => {
      const { fs, readFile } = fileToolsWorld();
      const bytes = Uint8Array.from({ length: 256 }, (_, i) => i);
      fs.seedFile('/ws/data.bin', bytes);
      const result = await readFile.execute({ root: 'workspace', path: 'data.bin', offset_bytes: 10, limit_bytes: 20 });
      expect(result).toMatchObject({ binary: true, encoding: 'base64', size: 256, truncated: true });
      expect(fromBase64(result.content)).toEqual(bytes.subarray(10, 30));
    });

    it('sniffs binary from the start of the file even when the range has no NUL', async () => {
      const { fs, readFile } = fileToolsWorld();
      fs.seedFile('/ws/mixed.bin', new Uint8Array([0, 65, 66, 67]));
      expect(await readFile.execute({ root: 'workspace', path: 'mixed.bin', offset_bytes: 1 })).toMatchObject({
        content: 'QUJD',
        binary: true,
        truncated: false,
      });
    });

    it('E2E-012 (bytes): an offset past the end gives empty content, no error', async () => {
      const { fs, readFile } = fileToolsWorld();
      fs.seedFile('/ws/short.txt', 'abc');
      expect(await readFile.execute({ root: 'workspace', path: 'short.txt', offset_bytes: 99 })).toMatchObject({
        content: '',
        truncated: false,
        size: 3,
      });
    });

    it('without limit_bytes returns at most max_full_read_size and says more follows', async () => {
      const { fs, readFile } = fileToolsWorld({ maxFullReadSize: 100 });
      fs.seedFile('/ws/large.txt', 'x'.repeat(500));
      const result = await readFile.execute({ root: 'workspace', path: 'large.txt', offset_bytes: 0 });
      expect(result.content).toHaveLength(100);
      expect(result.truncated).toBe(true);
    });

    it('honours an explicit limit_bytes above max_full_read_size', async () => {
      const { fs, readFile } = fileToolsWorld({ maxFullReadSize: 100 });
      fs.seedFile('/ws/large.txt', 'x'.repeat(500));
      const result = await readFile.execute({ root: 'workspace', path: 'large.txt', limit_bytes: 500 });
      expect(result).toMatchObject({ truncated: false, size: 500 });
      expect(result.content).toHaveLength(500);
    });
  });

  describe('line ranges', () => {
    it('E2E-010: returns the requested lines with their own newlines and the total', async () => {
      const { fs, readFile } = fileToolsWorld();
      fs.seedFile('/ws/lines.txt', numbered(100));
      expect(await readFile.execute({ root: 'workspace', path: 'lines.txt', offset_lines: 50, limit_lines: 5 })).toEqual({
        path: 'lines.txt',
        content: 'line 50\nline 51\nline 52\nline 53\nline 54\n',
        size: numbered(100).length,
        truncated: true,
        encoding: 'utf-8',
        binary: false,
        lines_total: 100,
        next_offset_lines: 55,
      });
    });

    it('keeps CRLF endings and a last line without newline', async () => {
      const { fs, readFile } = fileToolsWorld();
      fs.seedFile('/ws/crlf.txt', 'one\r\ntwo\r\nthree');
      expect(await readFile.execute({ root: 'workspace', path: 'crlf.txt', offset_lines: 2 })).toMatchObject({
        content: 'two\r\nthree',
        truncated: false,
        lines_total: 3,
      });
    });

    it('E2E-012: an offset past the last line gives empty content and lines_total', async () => {
      const { fs, readFile } = fileToolsWorld();
      fs.seedFile('/ws/short.txt', 'one\ntwo\nthree\nfour\nfive\n');
      expect(await readFile.execute({ root: 'workspace', path: 'short.txt', offset_lines: 100, limit_lines: 10 })).toMatchObject({
        content: '',
        truncated: false,
        lines_total: 5,
      });
    });

    it('limit_lines alone starts at line 1', async () => {
      const { fs, readFile } = fileToolsWorld();
      fs.seedFile('/ws/lines.txt', numbered(10));
      expect(await readFile.execute({ root: 'workspace', path: 'lines.txt', limit_lines: 2 })).toMatchObject({
        content: 'line 1\nline 2\n',
        truncated: true,
      });
    });

    it('streams a file much larger than one chunk in bounded reads', async () => {
      const { fs, access, settings } = fileToolsWorld({ maxFullReadSize: 1024 });
      const content = numbered(60_000);
      fs.seedFile('/ws/big.log', content);
      const { port, readLengths } = recordingReads(fs);
      const readFile = new ReadFile(access, port, settings);

      const result = await readFile.execute({ root: 'workspace', path: 'big.log', offset_lines: 59_999, limit_lines: 5 });
      expect(result).toMatchObject({ content: 'line 59999\nline 60000\n', lines_total: 60_000, truncated: false });
      expect(content.length).toBeGreaterThan(15 * STREAM_CHUNK_BYTES);
      expect(readLengths.length).toBeGreaterThan(15);
      expect(Math.max(...readLengths)).toBeLessThanOrEqual(STREAM_CHUNK_BYTES);
    });

    it('without limit_lines stops at max_full_read_size, on a line boundary', async () => {
      const { fs, readFile } = fileToolsWorld({ maxFullReadSize: 20 });
      fs.seedFile('/ws/lines.txt', numbered(10));
      expect(await readFile.execute({ root: 'workspace', path: 'lines.txt', offset_lines: 1 })).toMatchObject({
        content: 'line 1\nline 2\n',
        truncated: true,
        lines_total: 10,
      });
    });

    it('refuses a single line longer than the read limit, pointing to byte reads', async () => {
      const { fs, readFile } = fileToolsWorld({ maxFullReadSize: 10, maxFileSize: 10 });
      fs.seedFile('/ws/one-line.txt', 'z'.repeat(50));
      const error = await domainError(readFile.execute({ root: 'workspace', path: 'one-line.txt', offset_lines: 1, limit_lines: 1 }));
      expect(error.toClientText()).toBe(
        'FILE_TOO_LARGE: line 1 of one-line.txt alone is larger than the read limit (10B); read it with offset_bytes/limit_bytes (root: workspace)',
      );
    });
  });

  describe('argument checks', () => {
    it('E2E-011: byte and line parameters are mutually exclusive', async () => {
      const { fs, readFile } = fileToolsWorld();
      fs.seedFile('/ws/file.txt', 'one\ntwo\n');
      const error = await domainError(readFile.execute({ root: 'workspace', path: 'file.txt', offset_bytes: 0, offset_lines: 1 }));
      expect(error.toClientText()).toBe(
        'INVALID_ARGUMENT: offset_bytes/limit_bytes and offset_lines/limit_lines are mutually exclusive (root: workspace)',
      );
    });

    it.each([
      [{ offset_lines: 0 }, 'offset_lines must be an integer >= 1, got 0'],
      [{ limit_lines: 0 }, 'limit_lines must be an integer >= 1, got 0'],
      [{ offset_bytes: -1 }, 'offset_bytes must be an integer >= 0, got -1'],
      [{ limit_bytes: 1.5 }, 'limit_bytes must be an integer >= 1, got 1.5'],
    ])('rejects %j', async (range, message) => {
      const { fs, readFile } = fileToolsWorld();
      fs.seedFile('/ws/file.txt', 'x');
      const error = await domainError(readFile.execute({ root: 'workspace', path: 'file.txt', ...range }));
      expect(error.toClientText()).toBe(`INVALID_ARGUMENT: ${message} (root: workspace)`);
    });
  });

  describe('failures', () => {
    it('names a missing file', async () => {
      const { readFile } = fileToolsWorld();
      expect((await domainError(readFile.execute({ root: 'workspace', path: 'src/main.go' }))).toClientText()).toBe(
        'NOT_FOUND: file not found: src/main.go (root: workspace)',
      );
    });

    it('points a directory to list_folder', async () => {
      const { fs, readFile } = fileToolsWorld();
      fs.seedDirectory('/ws/dir');
      expect((await domainError(readFile.execute({ root: 'workspace', path: 'dir' }))).toClientText()).toBe(
        'IS_A_DIRECTORY: path is a directory: dir; use list_folder (root: workspace)',
      );
    });

    it('E2E-064: refuses to read through a link that leaves the root', async () => {
      const { fs, readFile } = fileToolsWorld();
      fs.seedSymlink('/ws/escape', '/outside');
      const error = await domainError(readFile.execute({ root: 'workspace', path: 'escape/secret.txt' }));
      expect(error.code).toBe('ACCESS_DENIED');
      expect(error.message).not.toContain('/outside');
    });

    it('E2E-070: refuses a NUL in the path', async () => {
      const { readFile } = fileToolsWorld();
      expect((await domainError(readFile.execute({ root: 'workspace', path: 'file\0.txt' }))).code).toBe('INVALID_PATH');
    });

    it('works on a root whose allowlist has read_file', async () => {
      const { fs, readFile } = fileToolsWorld();
      fs.seedFile('/ro/a.txt', 'a');
      const allowed = await readFile.execute({ root: 'readonly', path: 'a.txt' });
      expect(allowed.content).toBe('a');
    });
  });
});
