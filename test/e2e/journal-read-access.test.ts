import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { callTool } from '../support/mcp.js';
import { startTestServer, type TestServer } from '../support/server.js';

// Issue 33 point 2, through the real server: list_changes is offered wherever any tool is allowed,
// so the journal must show no content or hash that the root's allowlist would not.

const SECRET = 'the secret content\n';

async function ok(client: Client, tool: string, args: Record<string, unknown>): Promise<{ text: string; structured: any }> {
  const outcome = await callTool(client, tool, args);
  if (outcome.isError) throw new Error(`${tool} failed: ${outcome.text}`);
  return { text: outcome.text, structured: outcome.structured };
}

describe('the change journal keeps contents confidential where no read tool is allowed (issue 33)', () => {
  let server: TestServer;
  let client: Client;

  beforeAll(async () => {
    server = await startTestServer({
      roots: [
        { name: 'blind', allowedTools: ['remove_file', 'copy', 'write_file'] },
        { name: 'blindundo', allowedTools: ['remove_file', 'write_file', 'undo_changes'] },
        { name: 'reader', allowedTools: ['remove_file', 'read_file'] },
        { name: 'hasher', allowedTools: ['remove_file', 'hash_file'] },
      ],
    });
    client = await server.connect();
  });
  afterAll(() => server.stop());

  it('remove_file then copy on a root allowing [remove_file, copy, write_file]: no diff, no sha256, in the text or the structure', async () => {
    await writeFile(join(server.rootPath('blind'), 'gone.txt'), SECRET);
    await writeFile(join(server.rootPath('blind'), 'src.txt'), SECRET);
    await ok(client, 'remove_file', { root: 'blind', path: 'gone.txt' });
    await ok(client, 'copy', { source_root: 'blind', source_path: 'src.txt', dest_root: 'blind', dest_path: 'dst.txt' });
    const listed = await ok(client, 'list_changes', { root: 'blind', diff: true });
    expect(listed.structured.changes.map((change: any) => [change.op, change.diff_omitted, change.before?.sha256 ?? null, change.after?.sha256 ?? null])).toEqual([
      ['copy', 'needs read_file on root blind', null, null],
      ['remove', 'needs read_file on root blind', null, null],
    ]);
    expect(listed.text).not.toContain('secret');
    expect(JSON.stringify(listed.structured)).not.toContain('secret');
  });

  it('undo_changes dry run on a root without read_file: would_restore, the diff omitted with the reason', async () => {
    await writeFile(join(server.rootPath('blindundo'), 'gone.txt'), SECRET);
    await ok(client, 'remove_file', { root: 'blindundo', path: 'gone.txt' });
    const dry = await ok(client, 'undo_changes', { root: 'blindundo', path: 'gone.txt', dry_run: true });
    expect(dry.structured.results).toEqual([expect.objectContaining({ outcome: 'would_restore', diff_omitted: 'needs read_file on root blindundo' })]);
    expect(dry.text).not.toContain('secret');
  });

  it('read_file allowed: the diff; hash_file allowed: the sha256', async () => {
    await writeFile(join(server.rootPath('reader'), 'gone.txt'), SECRET);
    await writeFile(join(server.rootPath('hasher'), 'gone.txt'), SECRET);
    await ok(client, 'remove_file', { root: 'reader', path: 'gone.txt' });
    await ok(client, 'remove_file', { root: 'hasher', path: 'gone.txt' });
    const [read] = (await ok(client, 'list_changes', { root: 'reader', diff: true })).structured.changes;
    expect(read.diff).toContain('-the secret content');
    expect(read.before.sha256).toBeNull();
    const [hashed] = (await ok(client, 'list_changes', { root: 'hasher', diff: true })).structured.changes;
    expect(hashed.before.sha256).toMatch(/^[0-9a-f]{64}$/);
    expect(hashed.diff_omitted).toBe('needs read_file on root hasher');
  });
});
