import { chmod, mkdir, mkdtemp, readFile, realpath, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { callTool } from '../support/mcp.js';
import { startTestServer, type TestServer } from '../support/server.js';
import { spawnServer, workspaceConfig, type SpawnedServer } from '../support/spawned-server.js';

// Issue 32: diffs cannot freeze the server, an undo's dry run says what the undo will do, and an undo is one change.

async function ok(client: Client, tool: string, args: Record<string, unknown>): Promise<any> {
  const outcome = await callTool(client, tool, args);
  if (outcome.isError) throw new Error(`${tool} failed: ${outcome.text}`);
  return outcome.structured;
}

const lines = (count: number, tag: string) => Array.from({ length: count }, (_, i) => `${tag} line ${i} of a file rewritten whole`).join('\n') + '\n';

describe('diffs are bounded and never hold other calls (real process)', () => {
  let dir: string;
  let server: SpawnedServer;
  beforeAll(async () => {
    dir = await realpath(await mkdtemp(join(tmpdir(), 'mcp-fs-e2e-diffs-')));
    const root = join(dir, 'workspace');
    await mkdir(root);
    // Two files of 2.4 MB and one of 3,000 lines (within the input bound, past the edit bound), each rewritten whole.
    await writeFile(join(root, 'huge-1.txt'), lines(60_000, 'old'));
    await writeFile(join(root, 'huge-2.txt'), lines(60_000, 'old'));
    await writeFile(join(root, 'many.txt'), lines(1_500, 'old'));
    server = await spawnServer(await workspaceConfig(dir, root));
  });
  afterAll(async () => {
    await server.stop();
    await rm(dir, { recursive: true, force: true });
  });

  it('list_changes and an undo dry run omit the diff of a huge rewrite ("too large"); list_roots on another client answers meanwhile', async () => {
    const writer = await server.connect();
    const other = await server.connect();
    for (const name of ['huge-1.txt', 'huge-2.txt']) await ok(writer, 'write_file', { root: 'workspace', path: name, content: lines(60_000, 'new') });
    await ok(writer, 'write_file', { root: 'workspace', path: 'many.txt', content: lines(1_500, 'new') });
    const listed = ok(writer, 'list_changes', { diff: true, limit: 3 });
    const dryRun = ok(writer, 'undo_changes', { root: 'workspace', path: 'many.txt', dry_run: true });
    const started = Date.now();
    await ok(other, 'list_roots', {});
    expect(Date.now() - started).toBeLessThan(2000);
    const { changes, diffs_omitted } = await listed;
    expect(changes.map((change: { path: string; diff_omitted?: string }) => [change.path, change.diff_omitted?.slice(0, 9)])).toEqual([
      ['many.txt', 'too large'],
      ['huge-2.txt', 'too large'],
      ['huge-1.txt', 'too large'],
    ]);
    expect(diffs_omitted).toBe(3);
    expect((await dryRun).results).toEqual([expect.objectContaining({ outcome: 'would_restore', diff_omitted: expect.stringMatching(/^too large/) })]);
  });

  it('honours SIGTERM while diffs are being made', async () => {
    const client = await server.connect();
    // Never answered once the server is gone: closing the client (afterAll) settles it.
    void callTool(client, 'list_changes', { diff: true, limit: 3 }).catch(() => undefined);
    await new Promise((resolve) => setTimeout(resolve, 50));
    const exited = new Promise((resolve) => server.child.once('exit', resolve));
    const started = Date.now();
    server.child.kill('SIGTERM');
    await exited;
    expect(Date.now() - started).toBeLessThan(2000);
  });
});

describe('undo dry runs and undos of undos (in-process server)', () => {
  let server: TestServer;
  let client: Client;
  let root: string;
  beforeAll(async () => {
    server = await startTestServer({ settings: { maxResultBytes: 3000 } });
    client = await server.connect();
    root = server.rootPath('workspace');
  });
  afterAll(() => server.stop());

  /** The dry run's outcomes and then the real call's, for one selection. */
  async function dryThenReal(args: Record<string, unknown>): Promise<{ dry: string[]; real: string[] }> {
    const outcomes = async (extra: Record<string, unknown>) => (await ok(client, 'undo_changes', { ...args, ...extra })).results.map((result: { op: string; outcome: string }) => `${result.op} ${result.outcome}`);
    const dry = await outcomes({ dry_run: true });
    return { dry, real: await outcomes({}) };
  }

  it('a dry run gives the outcomes the real call then gives: several edits, a create then edits, a remove', async () => {
    await writeFile(join(root, 'three.txt'), 'v1\n');
    for (const content of ['v2\n', 'v3 is longer\n', 'v4\n']) await ok(client, 'write_file', { root: 'workspace', path: 'three.txt', content });
    expect(await dryThenReal({ root: 'workspace', path: 'three.txt' })).toEqual({
      dry: ['modify would_restore', 'modify would_restore', 'modify would_restore'],
      real: ['modify restored', 'modify restored', 'modify restored'],
    });
    for (const content of ['one', 'two!', 'three']) await ok(client, 'write_file', { root: 'workspace', path: 'made.txt', content });
    expect(await dryThenReal({ root: 'workspace', path: 'made.txt' })).toEqual({
      dry: ['modify would_restore', 'modify would_restore', 'create would_restore'],
      real: ['modify restored', 'modify restored', 'create restored'],
    });
    await writeFile(join(root, 'gone.txt'), 'g1');
    await ok(client, 'write_file', { root: 'workspace', path: 'gone.txt', content: 'g2 longer' });
    await ok(client, 'remove_file', { root: 'workspace', path: 'gone.txt' });
    expect(await dryThenReal({ root: 'workspace', path: 'gone.txt' })).toEqual({
      dry: ['remove would_restore', 'modify would_restore'],
      real: ['remove restored', 'modify restored'],
    });
    expect(await readFile(join(root, 'gone.txt'), 'utf8')).toBe('g1');
  });

  it('a dry run answer stays within max_result_bytes: a diff that does not fit is omitted, and said so', async () => {
    await writeFile(join(root, 'budget.txt'), 'old\n');
    const outcome = await callTool(client, 'write_file', { root: 'workspace', path: 'budget.txt', content: 'a fairly long line of new text\n'.repeat(100), dry_run: true });
    expect(outcome.structured).toMatchObject({ dry_run: true, diff_omitted: expect.stringContaining('max_result_bytes') });
    expect(outcome.text).toContain('Diff omitted: too large for max_result_bytes');
    expect(Buffer.byteLength(outcome.text)).toBeLessThanOrEqual(3000);
    expect(Buffer.byteLength(JSON.stringify(outcome.structured))).toBeLessThanOrEqual(3000);
  });

  it('"undo my last change" after an undo that restored another mode gives the undone state back, never deletes the file', async () => {
    await writeFile(join(root, 'src.txt'), 'copied\n');
    await chmod(join(root, 'src.txt'), 0o644);
    await writeFile(join(root, 'dest.txt'), 'was here\n');
    await chmod(join(root, 'dest.txt'), 0o600);
    await ok(client, 'copy', { source_root: 'workspace', source_path: 'src.txt', dest_root: 'workspace', dest_path: 'dest.txt' });
    const undoLast = async () => {
      const [last] = (await ok(client, 'list_changes', { limit: 1 })).changes;
      return (await ok(client, 'undo_changes', { ids: [last.id] })).results[0].outcome;
    };
    expect(await undoLast()).toBe('restored');
    expect((await stat(join(root, 'dest.txt'))).mode & 0o777).toBe(0o600);
    expect(await undoLast()).toBe('restored');
    expect(await readFile(join(root, 'dest.txt'), 'utf8')).toBe('copied\n');
    expect((await stat(join(root, 'dest.txt'))).mode & 0o777).toBe(0o644);
  });
});
