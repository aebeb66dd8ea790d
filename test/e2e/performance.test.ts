import { createHash, randomBytes } from 'node:crypto';
import { promises as fs } from 'node:fs';
import { join } from 'node:path';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { useTestServer } from '../support/live-server.js';
import { callTool } from '../support/mcp.js';
import { ok } from '../support/fixtures.js';

const MB = 1024 * 1024;

const live = useTestServer();

/** Writes `repeat` copies of `block` to a new file; returns the file's sha256. */
async function writeRepeated(hostPath: string, block: Uint8Array, repeat: number): Promise<string> {
  const hash = createHash('sha256');
  const handle = await fs.open(hostPath, 'w');
  try {
    for (let i = 0; i < repeat; i += 1) {
      await handle.write(block);
      hash.update(block);
    }
  } finally {
    await handle.close();
  }
  return hash.digest('hex');
}

/**
 * Runs `action` while sampling the live ArrayBuffer memory of this process (the server runs
 * in it). A full GC before each sample discards already-released read chunks, so the peak
 * reflects what is held at once rather than how fast garbage piles up between collections.
 * Samples are chained with a pause after each GC of at least four times that GC's length, so the
 * server keeps most of the time even when a full GC of this (large, test-runner) heap is slow on a
 * loaded machine; a whole-file read would be held for the entire call, so sparser samples still see it.
 */
async function peakLiveArrayBuffers<T>(action: () => Promise<T>): Promise<{ result: T; rise: number }> {
  setFlagsFromString('--expose-gc');
  const gc = runInNewContext('gc') as () => void;
  gc();
  const baseline = process.memoryUsage().arrayBuffers;
  let peak = baseline;
  let timer: NodeJS.Timeout | undefined;
  const sample = () => {
    const started = performance.now();
    gc();
    peak = Math.max(peak, process.memoryUsage().arrayBuffers);
    timer = setTimeout(sample, Math.max(40, 4 * (performance.now() - started)));
  };
  timer = setTimeout(sample, 20);
  try {
    const result = await action();
    return { result, rise: peak - baseline };
  } finally {
    clearTimeout(timer);
  }
}

describe('performance', () => {
  it('E2E-077: large directory listing (1000+ entries)', async () => {
    const names = Array.from({ length: 1500 }, (_, i) => `file-${String(i).padStart(4, '0')}.txt`);
    await fs.mkdir(join(live.root, 'big'));
    for (let i = 0; i < names.length; i += 100) {
      await Promise.all(names.slice(i, i + 100).map((name) => fs.writeFile(join(live.root, 'big', name), name)));
    }

    const started = performance.now();
    const outcome = await callTool(live.client, 'list_folder', { root: 'workspace', path: 'big' });
    const elapsed = performance.now() - started;

    const listed = ok(outcome);
    expect(listed.count).toBe(1500);
    expect(listed.entries.map((e: { name: string }) => e.name)).toEqual(names);
    for (const entry of listed.entries) expect(entry).toMatchObject({ type: 'file', size: 13 });
    expect(elapsed).toBeLessThan(2000);
  });

  it('E2E-078: hash of large file (streaming, not OOM)', async () => {
    const hostPath = join(live.root, 'large.bin');
    const expected = await writeRepeated(hostPath, randomBytes(MB), 50);
    try {
      const { result, rise } = await peakLiveArrayBuffers(() =>
        callTool(live.client, 'hash_file', { root: 'workspace', path: 'large.bin', algorithm: 'sha256' }),
      );

      expect(ok(result)).toMatchObject({ algorithm: 'sha256', hash: expected, size: 50 * MB });
      // Streaming in 32 KB chunks holds a few chunks at once; reading the file whole would hold 50 MB.
      expect(rise).toBeLessThan(25 * MB);
    } finally {
      await fs.rm(hostPath, { force: true });
    }
  });

  it('E2E-079: grep timeout returns partial results', async () => {
    // One 48 MB file, hard-linked 40 times: about 2 GB of text to search, for 48 MB of disk.
    // A matching line opens each 10,000-line stretch, so one second yields matches but stays under max_results.
    const stretch = ['needle: common pattern\n', ...Array.from({ length: 9999 }, (_, i) => `filler line ${i} without the word\n`)].join('');
    const repeat = Math.ceil((48 * MB) / Buffer.byteLength(stretch));
    await fs.mkdir(join(live.root, 'tree'));
    await writeRepeated(join(live.root, 'tree', 'log-00.txt'), Buffer.from(stretch), repeat);
    for (let i = 1; i < 40; i += 1) await fs.link(join(live.root, 'tree', 'log-00.txt'), join(live.root, 'tree', `log-${String(i).padStart(2, '0')}.txt`));
    try {
      const started = performance.now();
      const outcome = await callTool(live.client, 'grep', { root: 'workspace', path: 'tree', pattern: 'needle', timeout_seconds: 1, max_results: 10000 });
      const elapsed = performance.now() - started;

      const result = ok(outcome);
      expect(result.timed_out).toBe(true);
      expect(result.truncated).toBe(false);
      expect(result.matches.length).toBeGreaterThan(0);
      for (const match of result.matches) {
        expect(match.file).toMatch(/^tree\/log-\d\d\.txt$/);
        expect(match.line_content).toBe('needle: common pattern');
        expect(match.line_number % 10000).toBe(1);
      }
      expect(elapsed).toBeLessThan(5000);
    } finally {
      await fs.rm(join(live.root, 'tree'), { recursive: true, force: true });
    }
  });
});
