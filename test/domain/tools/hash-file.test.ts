import { NodeContentHasher } from '../../../src/adapters/outbound/node-content-hasher.js';
import { HASH_CHUNK_BYTES } from '../../../src/domain/tools/file-text.js';
import { HashFile } from '../../../src/domain/tools/hash-file.js';
import { domainError, fileToolsWorld, recordingReads } from './file-tools-harness.js';

describe('HashFile', () => {
  it('E2E-035: sha256 of a known file', async () => {
    const { fs, hashFile } = fileToolsWorld();
    fs.seedFile('/ws/known.txt', 'test content\n');
    expect(await hashFile.execute({ root: 'workspace', path: 'known.txt', algorithm: 'sha256' })).toEqual({
      path: 'known.txt',
      algorithm: 'sha256',
      hash: 'a1fff0ffefb9eace7230c24e50731f0a91c62f9cefdfe77121c2f607125dffae',
      size: 13,
    });
  });

  it.each([
    ['md5', '9e107d9d372bb6826bd81d3542a419d6'],
    ['sha1', '2fd4e1c67a2d28fced849ee1bb76e7391b93eb12'],
    ['SHA1', '2fd4e1c67a2d28fced849ee1bb76e7391b93eb12'],
    ['Sha256', 'd7a8fbb307d7809469ca9abcb0082e4f8d5651e46d3cdb762d02d0bf37c9e592'],
  ])('E2E-036: %s (algorithm in any case, returned lower-case)', async (algorithm, hash) => {
    const { fs, hashFile } = fileToolsWorld();
    fs.seedFile('/ws/fox.txt', 'The quick brown fox jumps over the lazy dog');
    expect(await hashFile.execute({ root: 'workspace', path: 'fox.txt', algorithm })).toMatchObject({
      algorithm: algorithm.toLowerCase(),
      hash,
    });
  });

  it('hashes an empty file', async () => {
    const { fs, hashFile } = fileToolsWorld();
    fs.seedFile('/ws/empty', '');
    expect(await hashFile.execute({ root: 'workspace', path: 'empty', algorithm: 'md5' })).toMatchObject({
      hash: 'd41d8cd98f00b204e9800998ecf8427e',
      size: 0,
    });
  });

  it('streams a large file in chunks of at most 1 MiB, never holding it whole (NFR-003)', async () => {
    const { fs, access } = fileToolsWorld();
    const bytes = Uint8Array.from({ length: 3_000_000 }, (_, i) => (i * 7) % 256);
    fs.seedFile('/ws/large.bin', bytes);
    const { port, readLengths } = recordingReads(fs);
    const whole = new NodeContentHasher().create('sha256');
    whole.update(bytes);

    const result = await new HashFile(access, port, new NodeContentHasher()).execute({ root: 'workspace', path: 'large.bin', algorithm: 'sha256' });
    expect(result).toMatchObject({ hash: whole.digest(), size: 3_000_000 });
    expect(readLengths.length).toBeGreaterThanOrEqual(Math.ceil(3_000_000 / HASH_CHUNK_BYTES));
    expect(Math.max(...readLengths)).toBeLessThanOrEqual(HASH_CHUNK_BYTES);
  });

  it.each(['md4', 'sha512'])('E2E-037 / E2E-075: rejects %s, listing the supported algorithms', async (algorithm) => {
    const { fs, hashFile } = fileToolsWorld();
    fs.seedFile('/ws/any.txt', 'any');
    expect((await domainError(hashFile.execute({ root: 'workspace', path: 'any.txt', algorithm }))).toClientText()).toBe(
      `INVALID_ARGUMENT: unsupported hash algorithm: ${algorithm}; supported: md5, sha1, sha256 (root: workspace)`,
    );
  });

  it('E2E-038: refuses a directory', async () => {
    const { fs, hashFile } = fileToolsWorld();
    fs.seedDirectory('/ws/subdir');
    expect((await domainError(hashFile.execute({ root: 'workspace', path: 'subdir', algorithm: 'sha256' }))).toClientText()).toBe(
      'IS_A_DIRECTORY: path is a directory: subdir; cannot hash a directory (root: workspace)',
    );
  });

  it('names a missing file', async () => {
    const { hashFile } = fileToolsWorld();
    expect((await domainError(hashFile.execute({ root: 'workspace', path: 'nope', algorithm: 'md5' }))).toClientText()).toBe(
      'NOT_FOUND: file not found: nope (root: workspace)',
    );
  });

  it('hashes an in-root link target but refuses one outside', async () => {
    const { fs, hashFile } = fileToolsWorld();
    fs.seedFile('/ws/real.txt', 'test content\n');
    fs.seedSymlink('/ws/alias', 'real.txt');
    fs.seedSymlink('/ws/escape', '/outside/secret.txt');
    expect((await hashFile.execute({ root: 'workspace', path: 'alias', algorithm: 'sha256' })).size).toBe(13);
    expect((await domainError(hashFile.execute({ root: 'workspace', path: 'escape', algorithm: 'sha256' }))).code).toBe('ACCESS_DENIED');
  });

  it('E2E-066: is refused on a root that does not allow it', async () => {
    const { fs, hashFile } = fileToolsWorld();
    fs.seedFile('/ro/a.txt', 'a');
    expect((await domainError(hashFile.execute({ root: 'readonly', path: 'a.txt', algorithm: 'md5' }))).toClientText()).toBe(
      'TOOL_NOT_ALLOWED: tool hash_file not allowed on root readonly',
    );
  });
});
