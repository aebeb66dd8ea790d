import { ReadFiles } from '../../../src/domain/tools/read-files.js';
import { ReadFile } from '../../../src/domain/tools/read-file.js';
import { PathPolicy } from '../../../src/domain/path-policy.js';
import { RootAccess } from '../../../src/domain/tools/root-access.js';
import { InMemoryFileSystem } from '../../../src/adapters/outbound/in-memory-file-system.js';
import { TEST_SETTINGS } from '../../support/domain.js';
import { makeRoot } from '../../support/roots.js';
import { domainError, fileToolsWorld } from './file-tools-harness.js';
import { toolPolicy } from '../../support/tools.js';

describe('ReadFiles', () => {
  it('reads each path as read_file does, in the order given; a bad path fails only its own entry', async () => {
    const { fs, readFiles, readFile } = fileToolsWorld();
    fs.seedFile('/ws/a.txt', 'alpha\n');
    fs.seedFile('/ws/b.bin', new Uint8Array([1, 0, 2]));
    fs.seedDirectory('/ws/dir');
    const result = await readFiles.execute({ root: 'workspace', paths: ['b.bin', 'missing.txt', 'a.txt', 'dir', '../outside/secret.txt'] });
    expect(result.files[0]).toEqual(await readFile.execute({ root: 'workspace', path: 'b.bin' }));
    expect(result.files[2]).toEqual(await readFile.execute({ root: 'workspace', path: 'a.txt' }));
    expect(result.files.map((entry) => ('error' in entry ? `${entry.path} ${entry.error.code}` : entry.path))).toEqual([
      'b.bin',
      'missing.txt NOT_FOUND',
      'a.txt',
      'dir IS_A_DIRECTORY',
      '../outside/secret.txt ACCESS_DENIED',
    ]);
    expect(JSON.stringify(result)).not.toContain('TOP SECRET');
  });

  it('applies the same line window to every file', async () => {
    const { fs, readFiles } = fileToolsWorld();
    fs.seedFile('/ws/a.txt', '1\n2\n3\n4\n');
    fs.seedFile('/ws/b.txt', 'x\ny\n');
    const result = await readFiles.execute({ root: 'workspace', paths: ['a.txt', 'b.txt'], offset_lines: 2, limit_lines: 2 });
    expect(result.files).toEqual([
      { path: 'a.txt', content: '2\n3\n', size: 8, truncated: true, encoding: 'utf-8', binary: false, lines_total: 4, next_offset_lines: 4 },
      { path: 'b.txt', content: 'y\n', size: 4, truncated: false, encoding: 'utf-8', binary: false, lines_total: 2 },
    ]);
  });

  it('needs read_file on the root (not a name of its own), and refuses an unknown root, before any path', async () => {
    const fs = new InMemoryFileSystem();
    fs.seedFile('/a/x.txt', 'x\n');
    fs.seedFile('/b/x.txt', 'x\n');
    const paths = new PathPolicy([makeRoot('allows', '/a', ['read_file']), makeRoot('denies', '/b', ['list_folder'])]);
    const access = new RootAccess(paths, toolPolicy());
    const readFiles = new ReadFiles(access, new ReadFile(access, fs, TEST_SETTINGS), TEST_SETTINGS);
    expect((await readFiles.execute({ root: 'allows', paths: ['x.txt'] })).files[0]).toMatchObject({ content: 'x\n' });
    expect((await domainError(readFiles.execute({ root: 'denies', paths: ['x.txt'] }))).code).toBe('TOOL_NOT_ALLOWED');
    expect((await domainError(readFiles.execute({ root: 'nope', paths: ['x.txt'] }))).code).toBe('UNKNOWN_ROOT');
  });

  it('takes 1 to 50 paths', async () => {
    const { readFiles } = fileToolsWorld();
    expect((await domainError(readFiles.execute({ root: 'workspace', paths: [] }))).code).toBe('INVALID_ARGUMENT');
    expect((await domainError(readFiles.execute({ root: 'workspace', paths: Array.from({ length: 51 }, () => 'a') }))).code).toBe('INVALID_ARGUMENT');
  });

  it('one result budget: the file that does not fit is truncated with its next offset, the ones after are RESULT_BUDGET', async () => {
    const { fs, readFiles } = fileToolsWorld({ maxResultBytes: 8 * 1024 });
    fs.seedFile('/ws/small.txt', 'small\n');
    fs.seedFile('/ws/big.txt', 'b'.repeat(20 * 1024));
    fs.seedFile('/ws/after.txt', 'after\n');
    const result = await readFiles.execute({ root: 'workspace', paths: ['small.txt', 'big.txt', 'after.txt'] });
    expect(result.files[0]).toMatchObject({ path: 'small.txt', content: 'small\n', truncated: false });
    const big = result.files[1];
    expect(big).toMatchObject({ path: 'big.txt', truncated: true });
    if ('error' in big) throw new Error('unreachable');
    expect(big.next_offset_bytes).toBe(big.content.length);
    expect(big.content.length).toBeLessThan(8 * 1024);
    expect(result.files[2]).toEqual({ path: 'after.txt', error: { code: 'RESULT_BUDGET', message: expect.stringContaining('max_result_bytes') } });
    const total = result.files.reduce((sum, entry) => sum + ('error' in entry ? 0 : JSON.stringify(entry.content).length), 0);
    expect(total).toBeLessThanOrEqual(8 * 1024);
  });

  it('the budget is shared: many files that each fit alone do not all fit together', async () => {
    const { fs, readFiles } = fileToolsWorld({ maxResultBytes: 8 * 1024 });
    const paths = Array.from({ length: 6 }, (_, i) => `f${i}.txt`);
    for (const path of paths) fs.seedFile(`/ws/${path}`, `${'z'.repeat(2999)}\n`);
    const result = await readFiles.execute({ root: 'workspace', paths });
    const codes = result.files.map((entry) => ('error' in entry ? entry.error.code : entry.truncated ? 'truncated' : 'whole'));
    expect(codes).toEqual(['whole', 'whole', 'truncated', 'RESULT_BUDGET', 'RESULT_BUDGET', 'RESULT_BUDGET']);
  });

  it('a file cut at max_full_read_size (offset_lines, no limit_lines) spends only what it returned: later files are read', async () => {
    const { fs, readFiles } = fileToolsWorld({ maxFullReadSize: 5000, maxResultBytes: 200_000 });
    fs.seedFile('/ws/long.txt', 'line of forty bytes, more or less......\n'.repeat(1000));
    fs.seedFile('/ws/after.txt', 'one\ntwo\n');
    const result = await readFiles.execute({ root: 'workspace', paths: ['long.txt', 'after.txt'], offset_lines: 2 });
    expect(result.files[0]).toMatchObject({ path: 'long.txt', truncated: true, next_offset_lines: expect.any(Number) });
    expect(result.files[1]).toEqual({ path: 'after.txt', content: 'two\n', size: 8, truncated: false, encoding: 'utf-8', binary: false, lines_total: 2 });
  });

  it('a whole text file cut by the budget stops at a line end and continues by offset_lines, which read_files takes', async () => {
    const { fs, readFiles } = fileToolsWorld({ maxResultBytes: 8 * 1024 });
    const text = Array.from({ length: 1000 }, (_, i) => `line ${i + 1}\n`).join('');
    fs.seedFile('/ws/lines.txt', text);
    const [first] = (await readFiles.execute({ root: 'workspace', paths: ['lines.txt'] })).files;
    if ('error' in first) throw new Error(first.error.message);
    expect(first).toMatchObject({ truncated: true, lines_total: 1000 });
    expect(first.next_offset_bytes).toBeUndefined();
    expect(first.content.endsWith('\n')).toBe(true);
    const [rest] = (await readFiles.execute({ root: 'workspace', paths: ['lines.txt'], offset_lines: first.next_offset_lines })).files;
    if ('error' in rest) throw new Error(rest.error.message);
    expect(rest.content.startsWith(`line ${first.next_offset_lines}\n`)).toBe(true);
    expect(text.startsWith(first.content)).toBe(true);
  });
});
