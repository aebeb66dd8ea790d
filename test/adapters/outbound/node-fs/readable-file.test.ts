import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { writeFileSync } from 'node:fs';
import { mkdtemp, realpath } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { NodeContentHasher } from '../../../../src/adapters/outbound/node-content-hasher.js';
import { NodeFileSystem } from '../../../../src/adapters/outbound/node-file-system.js';
import type { RootPath } from '../../../../src/domain/roots.js';
import { digestFile, HASH_CHUNK_BYTES, readRange } from '../../../../src/domain/tools/file-text.js';
import { makeRoot } from '../../../support/roots.js';

const patterned = (length: number) => Uint8Array.from({ length }, (_, i) => (i * 31 + (i >> 13)) % 251);

/** Small files are read synchronously, larger ones on the thread pool, optionally into the caller's buffer. */
describe('NodeFileSystem: reading an opened file', () => {
  let base: string;
  let at: (rel: string) => RootPath;
  const fs = new NodeFileSystem();

  beforeEach(async () => {
    base = await realpath(await mkdtemp(join(tmpdir(), 'readable-file-')));
    const root = makeRoot('workspace', base);
    at = (rel) => ({ root, segments: rel.split('/') });
  });

  afterEach(() => {
    execFileSync('rm', ['-rf', '--', base]);
  });

  it.each([0, 1, 4096, 65536, 65537, 1024 * 1024, 1024 * 1024 + 1, 3 * HASH_CHUNK_BYTES + 17])('a %p-byte file reads back and hashes exactly', async (size) => {
    const bytes = patterned(size);
    writeFileSync(join(base, 'f.bin'), bytes);
    const file = await fs.openFile(at('f.bin'));
    try {
      expect(Buffer.from(await readRange(file, 0, size + 10)).equals(Buffer.from(bytes))).toBe(true);
      const expected = createHash('sha256').update(bytes).digest('hex');
      expect(await digestFile(new NodeContentHasher(), 'sha256', file)).toEqual({ digest: expected, size });
    } finally {
      await file.close();
    }
  });

  it('a read into a caller buffer fills it and returns a view of it, never past the buffer or the file', async () => {
    const bytes = patterned(200_000);
    writeFileSync(join(base, 'f.bin'), bytes);
    const file = await fs.openFile(at('f.bin'));
    try {
      const buffer = new Uint8Array(50_000);
      const first = await file.read(10, 100_000, buffer);
      expect(first.buffer).toBe(buffer.buffer);
      expect(Buffer.from(first).equals(Buffer.from(bytes.subarray(10, 50_010)))).toBe(true);
      const last = await file.read(190_000, 50_000, buffer);
      expect(Buffer.from(last).equals(Buffer.from(bytes.subarray(190_000)))).toBe(true);
      expect((await file.read(200_000, 10, buffer)).length).toBe(0);
    } finally {
      await file.close();
    }
  });

  it.each([
    [1024 * 1024, true],
    [1024 * 1024 + 1, false],
  ])('a file of %p bytes is read without leaving the current turn of the event loop: %p (a larger one goes to the thread pool)', async (size, synchronous) => {
    writeFileSync(join(base, 'f.bin'), patterned(size));
    const file = await fs.openFile(at('f.bin'));
    try {
      let loopTurned = false;
      setImmediate(() => (loopTurned = true));
      expect((await file.read(0, 32 * 1024)).length).toBe(32 * 1024);
      expect(loopTurned).toBe(!synchronous);
    } finally {
      await file.close();
    }
  });

  it('close waits for a read still on the thread pool, and a read after close is an I/O error', async () => {
    const bytes = patterned(2 * HASH_CHUNK_BYTES);
    writeFileSync(join(base, 'f.bin'), bytes);
    const file = await fs.openFile(at('f.bin'));
    const reading = file.read(0, bytes.length);
    const closing = file.close();
    const [read] = await Promise.all([reading, closing]);
    expect(Buffer.from(read).equals(Buffer.from(bytes))).toBe(true);
    await expect(file.read(0, 10)).rejects.toMatchObject({ code: 'IO_ERROR' });
    await expect(file.seekLine?.(1)).rejects.toMatchObject({ code: 'IO_ERROR' });
  });
});
