import { mkdir, mkdtemp, readdir, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { callTool } from '../support/mcp.js';
import { stdioClient } from '../support/stdio-client.js';

const CHANGES = 25;

// Issue 31.1: a stdio server stopped by its client (stdin closed) writes the journal's checkpoint,
// and the next start-up reads it instead of every record file.
describe('journal start-up from its checkpoint (stdio)', () => {
  let dir: string;
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'mcp-fs-e2e-journal-startup-'));
  });
  afterAll(() => rm(dir, { recursive: true, force: true }));

  it('after a clean stop, a restart lists every change without reading the record files', async () => {
    const workspace = join(dir, 'workspace');
    const journal = join(dir, 'journal');
    await mkdir(workspace);
    const config = ['log_level: error', 'roots:', '  - name: workspace', `    path: ${JSON.stringify(workspace)}`, '    allowed_tools: ["*"]', `journal: { dir: ${JSON.stringify(journal)} }`, ''].join('\n');
    const first = await stdioClient(dir, config);
    for (let at = 0; at < CHANGES; at += 1) expect((await callTool(first, 'write_file', { root: 'workspace', path: `n${at}.txt`, content: `change ${at}\n` })).isError).toBeFalsy();
    await first.close();
    // The stop closed the journal: its log checkpointed, its index's checkpoint written.
    expect(await readdir(join(journal, 'log'))).toEqual([]);
    expect((await stat(join(journal, 'index'))).size).toBeGreaterThan(0);
    // Garbled in place (the directory's mtime stays): a start-up that read them would find no record.
    const records = await readdir(join(journal, 'records'));
    expect(records).toHaveLength(CHANGES);
    for (const name of records) await writeFile(join(journal, 'records', name), 'x'.repeat((await stat(join(journal, 'records', name))).size), { flag: 'r+' });
    const again = await stdioClient(dir, config);
    try {
      const listed = (await callTool(again, 'list_changes', { limit: 100 })).structured as { changes: { path: string }[] };
      expect(listed.changes.map((change) => change.path).sort()).toEqual(Array.from({ length: CHANGES }, (_, at) => `n${at}.txt`).sort());
    } finally {
      await again.close();
    }
  });
});
