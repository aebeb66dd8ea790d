import { InMemoryFileSystem } from '../../../src/adapters/outbound/in-memory-file-system.js';
import { Re2RegexEngine } from '../../../src/adapters/outbound/re2-regex-engine.js';
import { Copy } from '../../../src/domain/tools/copy.js';
import { HASH_CHUNK_BYTES, STREAM_CHUNK_BYTES } from '../../../src/domain/tools/file-text.js';
import { Glob } from '../../../src/domain/tools/glob.js';
import { Grep } from '../../../src/domain/tools/grep.js';
import { walkTree } from '../../../src/domain/tree-walker.js';
import type { WorkContext } from '../../../src/domain/work-context.js';
import { domainError, rootAccess } from '../../support/domain.js';
import { makeRoot } from '../../support/roots.js';
import { fileToolsWorld } from './file-tools-harness.js';
import { searchSettings, SteppingClock } from './search-harness.js';

/** A work context that records every progress report and aborts itself after `abortAfter` of them. */
function recordingWork(abortAfter = Number.POSITIVE_INFINITY) {
  const signal = { aborted: false };
  const reports: { done: number; total?: number }[] = [];
  const work: WorkContext = {
    signal,
    progress(done, total) {
      reports.push({ done, total });
      if (reports.length >= abortAfter) signal.aborted = true;
    },
  };
  return { work, signal, reports };
}

function expectNonDecreasing(reports: readonly { done: number }[]): void {
  for (let i = 1; i < reports.length; i++) expect(reports[i].done).toBeGreaterThanOrEqual(reports[i - 1].done);
}

/** /ws/tree: `count` small text files in 4 directories, each with one line containing "needle". */
function seedTree(fs: InMemoryFileSystem, count: number): void {
  fs.seedDirectory('/ws');
  for (let i = 0; i < count; i++) fs.seedFile(`/ws/tree/d${i % 4}/f${String(i).padStart(4, '0')}.txt`, `head\nneedle ${i}\ntail\n`);
}

const access = () => rootAccess(makeRoot('workspace', '/ws'));
const settings = searchSettings(10_000);

describe('cancellation and progress in the domain (WorkContext)', () => {
  it('an already aborted signal stops a walk before its first entry', async () => {
    const fs = new InMemoryFileSystem();
    seedTree(fs, 10);
    const seen: string[] = [];
    const walk = async () => {
      for await (const entry of walkTree(fs, { root: makeRoot('workspace', '/ws'), segments: ['tree'] }, { work: { signal: { aborted: true } } })) {
        seen.push(entry.relativePath);
      }
    };
    expect((await domainError(walk())).code).toBe('CANCELLED');
    expect(seen).toEqual([]);
  });

  it('hash_file: progress reports bytes hashed against the size, and an abort stops it with CANCELLED', async () => {
    const { fs, hashFile } = fileToolsWorld();
    const size = 5 * HASH_CHUNK_BYTES + 7;
    fs.seedFile('/ws/big.bin', new Uint8Array(size).fill(0x61));
    const complete = recordingWork();
    await hashFile.execute({ root: 'workspace', path: 'big.bin', algorithm: 'sha256' }, complete.work);
    expect(complete.reports.length).toBeGreaterThanOrEqual(5);
    expectNonDecreasing(complete.reports);
    expect(complete.reports.every((report) => report.total === size)).toBe(true);

    const aborted = recordingWork(2);
    const error = await domainError(hashFile.execute({ root: 'workspace', path: 'big.bin', algorithm: 'sha256' }, aborted.work));
    expect(error.toClientText()).toBe('CANCELLED: the call was cancelled by the client');
    // Stopped at the next chunk: no report after the one that aborted.
    expect(aborted.reports).toHaveLength(2);
  });

  it('read_file: a large byte window reports bytes read and stops when aborted', async () => {
    const { fs, readFile } = fileToolsWorld();
    fs.seedFile('/ws/big.txt', 'x'.repeat(20 * STREAM_CHUNK_BYTES));
    const complete = recordingWork();
    const result = await readFile.execute({ root: 'workspace', path: 'big.txt', offset_bytes: 0, limit_bytes: 10 * STREAM_CHUNK_BYTES }, complete.work);
    expect(result.content).toHaveLength(10 * STREAM_CHUNK_BYTES);
    expect(complete.reports.length).toBeGreaterThan(1);
    expectNonDecreasing(complete.reports);

    const aborted = recordingWork(3);
    const error = await domainError(readFile.execute({ root: 'workspace', path: 'big.txt', offset_lines: 1 }, aborted.work));
    expect(error.code).toBe('CANCELLED');
    expect(aborted.reports).toHaveLength(3);
  });

  it('grep: progress counts files searched, and an abort ends the search with CANCELLED', async () => {
    const fs = new InMemoryFileSystem();
    seedTree(fs, 200);
    const grep = new Grep(fs, new SteppingClock(0), new Re2RegexEngine(), settings, access());
    const complete = recordingWork();
    const result = await grep.execute({ root: 'workspace', path: 'tree', pattern: 'needle', max_results: 1000 }, complete.work);
    expect(result.files_searched).toBe(200);
    expect(complete.reports.map((report) => report.done)).toEqual(Array.from({ length: 200 }, (_, i) => i + 1));

    const aborted = recordingWork(5);
    const error = await domainError(grep.execute({ root: 'workspace', path: 'tree', pattern: 'needle', max_results: 1000 }, aborted.work));
    expect(error.code).toBe('CANCELLED');
    expect(aborted.reports).toHaveLength(5);
  });

  it('glob: an abort stops the walk with CANCELLED; progress counts entries walked', async () => {
    const fs = new InMemoryFileSystem();
    seedTree(fs, 300);
    const glob = new Glob(fs, new SteppingClock(0), new Re2RegexEngine(), settings, access());
    const complete = recordingWork();
    const result = await glob.execute({ root: 'workspace', path: 'tree', pattern: '**/*.txt', max_results: 1000 }, complete.work);
    expect(result.total_matches).toBe(300);
    expect(complete.reports.length).toBeGreaterThan(2);
    expectNonDecreasing(complete.reports);

    const aborted = recordingWork(1);
    expect((await domainError(glob.execute({ root: 'workspace', path: 'tree', pattern: '**/*.txt' }, aborted.work))).code).toBe('CANCELLED');
  });

  it('copy: progress counts entries copied against the total (a folder batch at a time), and an abort stops the copy part-way', async () => {
    const fs = new InMemoryFileSystem();
    seedTree(fs, 40);
    const copy = new Copy(fs, access());
    const complete = recordingWork();
    await copy.execute({ source_root: 'workspace', source_path: 'tree', dest_root: 'workspace', dest_path: 'copy1' }, complete.work);
    expectNonDecreasing(complete.reports);
    // The top folder's 4 folders, then each folder's 10 files: 5 batches, and the end.
    expect(complete.reports.map((report) => report.done)).toEqual([0, 4, 14, 24, 34, 44]);
    expect(complete.reports.at(-1)).toEqual({ done: 44, total: 44 });

    const aborted = recordingWork(2);
    const error = await domainError(
      copy.execute({ source_root: 'workspace', source_path: 'tree', dest_root: 'workspace', dest_path: 'copy2' }, aborted.work),
    );
    expect(error.code).toBe('CANCELLED');
    const copied = [];
    for await (const entry of walkTree(fs, { root: makeRoot('workspace', '/ws'), segments: ['copy2'] })) copied.push(entry);
    expect(copied.length).toBeLessThan(44);
  });

  it('remove_folder: an aborted call removes nothing and says CANCELLED', async () => {
    const { fs, removeFolder, statFile } = fileToolsWorld();
    fs.seedFile('/ws/doomed/a.txt', 'a');
    const error = await domainError(removeFolder.execute({ root: 'workspace', path: 'doomed' }, { signal: { aborted: true } }));
    expect(error.code).toBe('CANCELLED');
    expect(await statFile.execute({ root: 'workspace', path: 'doomed/a.txt' })).toMatchObject({ path: 'doomed/a.txt', size: 1 });
  });
});
