import { mkdtemp, readdir, realpath, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { callTool } from '../support/mcp.js';
import { startTestServer } from '../support/server.js';

// Issue 27 §2: journal.max_bytes bounds the journal's whole directory, not only its before-images.

/**
 * What stays above max_bytes between calls (docs/deployment.md, "The journal's size"), directories
 * aside: the begin log's next segment, made ahead (its header, under 200 bytes).
 */
const FIXED_OVERHEAD = 512;
const MAX_BYTES = 20_000;
const TEN_KB = 10 * 1024;

async function ok(client: Client, tool: string, args: Record<string, unknown>): Promise<any> {
  const outcome = await callTool(client, tool, args);
  if (outcome.isError) throw new Error(`${tool} failed: ${outcome.text}`);
  return outcome.structured;
}

/** Every regular file under `dir`, recursively, by its size. */
async function filesBytes(dir: string): Promise<number> {
  let total = 0;
  for (const entry of await readdir(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) total += await filesBytes(path);
    else total += (await stat(path)).size;
  }
  return total;
}

describe('change journal: journal.max_bytes bounds the whole directory', () => {
  it('40 overwrites of 10 KB files, creates and removes: the directory stays within max_bytes plus the fixed overhead; the newest change stays undoable', async () => {
    const journalDir = await realpath(await mkdtemp(join(tmpdir(), 'mcp-fs-e2e-journal-size-')));
    const dir = join(journalDir, 'j');
    const server = await startTestServer({ journal: { dir, maxBytes: MAX_BYTES, maxFileBytes: 16 * 1024, retentionHours: 1 } });
    try {
      const client = await server.connect();
      const root = server.rootPath('workspace');
      for (let file = 0; file < 4; file += 1) await writeFile(join(root, `f${file}.bin`), 'o'.repeat(TEN_KB));
      let largest = 0;
      for (let round = 0; round < 40; round += 1) {
        await ok(client, 'write_file', { root: 'workspace', path: `f${round % 4}.bin`, content: String.fromCharCode(97 + (round % 26)).repeat(TEN_KB) });
        if (round % 8 === 0) {
          await ok(client, 'write_file', { root: 'workspace', path: `new${round}.txt`, content: 'created' });
          await ok(client, 'remove_file', { root: 'workspace', path: `new${round}.txt` });
        }
        largest = Math.max(largest, await filesBytes(dir));
      }
      expect(largest).toBeLessThanOrEqual(MAX_BYTES + FIXED_OVERHEAD);
      const { changes } = await ok(client, 'list_changes', { limit: 100 });
      // The newest overwrite is undoable (its image is kept); older ones were evicted or forgotten, oldest first.
      expect(changes[0]).toMatchObject({ path: 'f3.bin', undoable: true });
      expect(changes.length).toBeGreaterThan(1);
      const body = await (await fetch(`${server.baseUrl}/metrics`)).text();
      const sample = (series: string) => Number(body.split('\n').find((line) => line.startsWith(`${series} `))?.slice(series.length + 1));
      expect(sample('mcp_fs_journal_bytes')).toBeLessThanOrEqual(MAX_BYTES);
      expect(sample('mcp_fs_journal_records')).toBe(changes.length);
      await ok(client, 'undo_changes', { ids: [changes[0].id] });
      expect(await filesBytes(dir)).toBeLessThanOrEqual(MAX_BYTES + FIXED_OVERHEAD);
    } finally {
      await server.stop();
      await rm(journalDir, { recursive: true, force: true });
    }
  });
});
