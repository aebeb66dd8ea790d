import { chmod, mkdir, mkdtemp, readdir, readFile, realpath, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { callTool } from '../support/mcp.js';
import { startTestServer, type TestServer } from '../support/server.js';
import { spawnServer, workspaceConfig, type SpawnedServer } from '../support/spawned-server.js';

// Issue 20: every change can be listed and undone, through the real server and the SDK client.

interface Session {
  readonly client: Client;
  /** Host directory of the root 'workspace'. */
  readonly root: string;
}

async function ok(client: Client, tool: string, args: Record<string, unknown>): Promise<any> {
  const outcome = await callTool(client, tool, args);
  if (outcome.isError) throw new Error(`${tool} failed: ${outcome.text}`);
  return outcome.structured;
}

async function latestIds(client: Client, count: number): Promise<string[]> {
  const { changes } = await ok(client, 'list_changes', { limit: count });
  return changes.map((change: { id: string }) => change.id);
}

async function modeOf(path: string): Promise<number> {
  return (await stat(path)).mode & 0o777;
}

async function tree(host: string, prefix = ''): Promise<string[]> {
  const found: string[] = [];
  for (const entry of (await readdir(host, { withFileTypes: true })).sort((a, b) => (a.name < b.name ? -1 : 1))) {
    found.push(prefix + entry.name + (entry.isDirectory() ? '/' : ''));
    if (entry.isDirectory()) found.push(...(await tree(join(host, entry.name), `${prefix}${entry.name}/`)));
  }
  return found;
}

/** The journeys both transports must pass. */
function journeys(open: () => Promise<Session>, close: () => Promise<void>): void {
  let session: Session;
  beforeAll(async () => {
    session = await open();
  });
  afterAll(close);

  it('undoes each writing tool byte for byte, modes included', async () => {
    const { client, root } = session;
    await mkdir(join(root, 'each'));
    await writeFile(join(root, 'each/w.txt'), 'write me\n', { mode: 0o640 });
    await chmod(join(root, 'each/w.txt'), 0o640);
    await writeFile(join(root, 'each/p.txt'), 'a\nb\nc\n');
    await writeFile(join(root, 'each/s.txt'), 'one two\n');
    await writeFile(join(root, 'each/r.bin'), Buffer.from([0, 1, 2, 255]));
    await chmod(join(root, 'each/r.bin'), 0o600);
    const before = await tree(join(root, 'each'));
    await ok(client, 'write_file', { root: 'workspace', path: 'each/w.txt', content: 'overwritten\n' });
    await ok(client, 'write_file', { root: 'workspace', path: 'each/w.txt', content: 'appended\n', mode: 'append' });
    await ok(client, 'write_file', { root: 'workspace', path: 'each/new.txt', content: 'created\n', mode: 'create_only' });
    await ok(client, 'patch_file', { root: 'workspace', path: 'each/p.txt', patch: '--- a/p.txt\n+++ b/p.txt\n@@ -1,3 +1,3 @@\n a\n-b\n+B\n c\n' });
    await ok(client, 'view', { path: '/workspace/each/s.txt' });
    await ok(client, 'str_replace', { path: '/workspace/each/s.txt', old_str: 'two', new_str: 'TWO' });
    await ok(client, 'create_file', { path: '/workspace/each/c.txt', content: 'made by create_file\n' });
    await ok(client, 'file_write', { path: '/workspace/each/fw/deep.txt', content: 'file_write\n' });
    await ok(client, 'remove_file', { root: 'workspace', path: 'each/r.bin' });
    await ok(client, 'create_folder', { root: 'workspace', path: 'each/folder/inner' });
    const { changes } = await ok(client, 'list_changes', { root: 'workspace', limit: 11 });
    expect(changes.map((change: { tool: string; op: string }) => `${change.tool} ${change.op}`)).toEqual([
      'create_folder mkdir',
      'remove_file remove',
      'file_write create',
      'file_write mkdir',
      'create_file create',
      'str_replace modify',
      'patch_file modify',
      'write_file create',
      'write_file modify',
      'write_file modify',
    ]);
    const { results } = await ok(client, 'undo_changes', { ids: changes.map((change: { id: string }) => change.id) });
    expect(results.map((result: { outcome: string }) => result.outcome)).toEqual(Array(10).fill('restored'));
    expect((await ok(client, 'list_changes', { root: 'workspace', limit: 10 })).changes.every((change: { tool: string }) => change.tool === 'undo_changes')).toBe(true);
    expect(await readFile(join(root, 'each/w.txt'), 'utf8')).toBe('write me\n');
    expect(await modeOf(join(root, 'each/w.txt'))).toBe(0o640);
    expect(await readFile(join(root, 'each/p.txt'), 'utf8')).toBe('a\nb\nc\n');
    expect(await readFile(join(root, 'each/s.txt'), 'utf8')).toBe('one two\n');
    expect([...(await readFile(join(root, 'each/r.bin')))]).toEqual([0, 1, 2, 255]);
    expect(await modeOf(join(root, 'each/r.bin'))).toBe(0o600);
    expect(await tree(join(root, 'each'))).toEqual(before);
  });

  it('restores a removed tree and moves a moved file back; copy and undo of a copy', async () => {
    const { client, root } = session;
    await mkdir(join(root, 'tree/sub/deeper'), { recursive: true });
    await writeFile(join(root, 'tree/a.txt'), 'A');
    await writeFile(join(root, 'tree/sub/deeper/b.sh'), '#!/bin/sh\n', { mode: 0o755 });
    await chmod(join(root, 'tree/sub/deeper/b.sh'), 0o755);
    const shape = await tree(join(root, 'tree'));
    await ok(client, 'remove_folder', { root: 'workspace', path: 'tree' });
    await ok(client, 'undo_changes', { ids: await latestIds(client, 1) });
    expect(await tree(join(root, 'tree'))).toEqual(shape);
    expect(await modeOf(join(root, 'tree/sub/deeper/b.sh'))).toBe(0o755);

    await ok(client, 'move', { source_root: 'workspace', source_path: 'tree/a.txt', dest_root: 'workspace', dest_path: 'moved.txt' });
    await ok(client, 'copy', { source_root: 'workspace', source_path: 'moved.txt', dest_root: 'workspace', dest_path: 'copied.txt' });
    const { results } = await ok(client, 'undo_changes', { ids: await latestIds(client, 2) });
    expect(results.map((result: { op: string; outcome: string }) => [result.op, result.outcome])).toEqual([
      ['copy', 'restored'],
      ['move', 'restored'],
    ]);
    expect(await readFile(join(root, 'tree/a.txt'), 'utf8')).toBe('A');
    expect((await readdir(root)).filter((name) => name === 'moved.txt' || name === 'copied.txt')).toEqual([]);
  });

  it('refuses a conflict, then forces it; an undo is undone; dry run writes nothing', async () => {
    const { client, root } = session;
    await writeFile(join(root, 'c.txt'), 'v1\n');
    await ok(client, 'write_file', { root: 'workspace', path: 'c.txt', content: 'v2\n' });
    const [change] = await latestIds(client, 1);
    await writeFile(join(root, 'c.txt'), 'someone else\n');
    const dry = await ok(client, 'undo_changes', { ids: [change], dry_run: true });
    expect(dry.results[0]).toMatchObject({ outcome: 'conflict', reason: 'c.txt: its size is 13 bytes, not 3' });
    expect((await ok(client, 'undo_changes', { ids: [change] })).results[0].outcome).toBe('conflict');
    expect(await readFile(join(root, 'c.txt'), 'utf8')).toBe('someone else\n');
    const previewed = await ok(client, 'undo_changes', { ids: [change], dry_run: true, force: true });
    expect(previewed.results[0]).toMatchObject({ outcome: 'would_restore' });
    expect(await readFile(join(root, 'c.txt'), 'utf8')).toBe('someone else\n');
    expect((await ok(client, 'undo_changes', { ids: [change], force: true })).results[0].outcome).toBe('restored');
    expect(await readFile(join(root, 'c.txt'), 'utf8')).toBe('v1\n');
    const [undo] = await ok(client, 'list_changes', { limit: 1 }).then((listed) => listed.changes);
    expect(undo).toMatchObject({ tool: 'undo_changes', path: 'c.txt', undoable: true });
    expect((await ok(client, 'undo_changes', { ids: [undo.id] })).results[0].outcome).toBe('restored');
    expect(await readFile(join(root, 'c.txt'), 'utf8')).toBe('someone else\n');
    const again = await ok(client, 'undo_changes', { ids: [change], force: true });
    expect(again.results[0]).toMatchObject({ outcome: 'conflict', reason: expect.stringMatching(/^already undone \(by session /) });
  });

  it('pages back with before_id; a since_id selecting more than 500 changes is refused, nothing undone', async () => {
    const { client, root } = session;
    for (const content of ['p1\n', 'p2\n', 'p3\n']) await ok(client, 'write_file', { root: 'workspace', path: 'paged.txt', content });
    const [third, second, first] = await latestIds(client, 3);
    const page = async (before_id: string) => (await ok(client, 'list_changes', { limit: 1, before_id })).changes.map((change: { id: string }) => change.id);
    expect(await page(third)).toEqual([second]);
    expect(await page(second)).toEqual([first]);
    // Over the limit: 501 writes of one file, so a since_id before them selects 501.
    const before = first;
    for (let i = 0; i < 501; i += 1) await ok(client, 'write_file', { root: 'workspace', path: 'many.txt', content: `${i}\n` });
    const refused = await callTool(client, 'undo_changes', { since_id: before, force: true });
    expect(refused.isError).toBe(true);
    expect(refused.text).toContain('since_id selects more than 500 of your changes, and one call undoes at most 500; nothing was undone');
    expect(await readFile(join(root, 'many.txt'), 'utf8')).toBe('500\n');
  });

  it('lists with a diff, and says so in the descriptions', async () => {
    const { client, root } = session;
    await writeFile(join(root, 'd.txt'), 'old line\n');
    await ok(client, 'write_file', { root: 'workspace', path: 'd.txt', content: 'new line\n' });
    const { changes } = await ok(client, 'list_changes', { root: 'workspace', path: 'd.txt', diff: true });
    expect(changes[0].diff).toContain('-old line\n+new line');
    expect(changes[0]).toMatchObject({ op: 'modify', before: { kind: 'file', size: 9, mode: '0644' } });
    const { tools } = await client.listTools();
    const described = new Map(tools.map((tool) => [tool.name, tool.description ?? '']));
    expect(described.get('remove_file')).not.toContain('Cannot be undone');
    expect(described.get('remove_folder')).toContain('Undoable (undo_changes)');
    expect(described.get('write_file')).toContain('Undoable (undo_changes)');
    expect(described.get('read_file')).not.toContain('undo_changes');
  });

  it('names each change after its own call when calls run at once, and after it when one runs alone', async () => {
    const { client, root } = session;
    const at = (round: number, name: string) => `together/${round}/${name}`;
    /** Five writing calls at once: the first runs alone (no store), the others start while it runs (a store each). */
    const calls = (round: number): [string, Record<string, unknown>, string][] => [
      ['write_file', { root: 'workspace', path: at(round, 'w.txt'), content: 'x'.repeat(200_000) }, at(round, 'w.txt')],
      ['create_folder', { root: 'workspace', path: at(round, 'd') }, at(round, 'd')],
      ['str_replace', { path: `/workspace/${at(round, 's.txt')}`, old_str: 'one', new_str: 'ONE' }, at(round, 's.txt')],
      ['remove_file', { root: 'workspace', path: at(round, 'r.txt') }, at(round, 'r.txt')],
      ['copy', { source_root: 'workspace', source_path: at(round, 'c.txt'), dest_root: 'workspace', dest_path: at(round, 'c2.txt') }, at(round, 'c.txt')],
    ];
    for (let round = 0; round < 3; round += 1) {
      await mkdir(join(root, `together/${round}`), { recursive: true });
      for (const name of ['s.txt', 'r.txt', 'c.txt']) await writeFile(join(root, at(round, name)), 'one two\n');
      await ok(client, 'view', { path: `/workspace/${at(round, 's.txt')}` });
      const made = await Promise.all(calls(round).map(([tool, args]) => callTool(client, tool, args)));
      expect(made.filter((outcome) => outcome.isError).map((outcome) => outcome.text)).toEqual([]);
      const { changes } = await ok(client, 'list_changes', { root: 'workspace', limit: 50 });
      const named = changes
        .filter((change: { path: string }) => change.path.startsWith(`together/${round}/`))
        .map((change: { tool: string; path: string }) => `${change.tool} ${change.path}`)
        .sort();
      expect(named).toEqual(calls(round).map(([tool, , path]) => `${tool} ${path}`).sort());
    }
    // One after another, each alone: each named after itself.
    await ok(client, 'write_file', { root: 'workspace', path: 'together/alone.txt', content: 'alone\n' });
    await ok(client, 'create_folder', { root: 'workspace', path: 'together/alone' });
    const latest = (await ok(client, 'list_changes', { root: 'workspace', limit: 2 })).changes;
    expect(latest.map((change: { tool: string; path: string }) => `${change.tool} ${change.path}`)).toEqual(['create_folder together/alone', 'write_file together/alone.txt']);
  });
}

describe('change journal over Streamable HTTP', () => {
  let server: TestServer;
  journeys(
    async () => {
      server = await startTestServer({ journal: true });
      return { client: await server.connect(), root: server.rootPath('workspace') };
    },
    () => server.stop(),
  );
});

describe('change journal over stdio', () => {
  let dir: string;
  let client: Client;
  journeys(
    async () => {
      dir = await realpath(await mkdtemp(join(tmpdir(), 'mcp-fs-e2e-journal-stdio-')));
      const root = join(dir, 'workspace');
      await mkdir(root);
      const transport = new StdioClientTransport({
        command: process.execPath,
        args: [join(process.cwd(), 'dist', 'main.js'), '--stdio', '--config', await workspaceConfig(dir, root)],
        env: { PATH: process.env.PATH ?? '', MCP_FS_JOURNAL_DIR: join(dir, 'journal') },
        stderr: 'pipe',
      });
      client = new Client({ name: 'journal-test', version: '1' });
      await client.connect(transport);
      return { client, root };
    },
    async () => {
      await client.close();
      await rm(dir, { recursive: true, force: true });
    },
  );
});

describe('change journal: principals and restarts', () => {
  it('keeps principals apart; a read-only principal lists nothing and never undoes', async () => {
    const { sha256Hex } = await import('../support/raw-mcp.js');
    const server = await startTestServer({
      journal: true,
      auth: {
        mode: 'tokens',
        tokens: [
          { name: 'alice', sha256: sha256Hex('alice-token-0123456789'), readOnly: false },
          { name: 'bob', sha256: sha256Hex('bob-token-0123456789ab'), readOnly: false },
          { name: 'reader', sha256: sha256Hex('reader-token-01234567'), readOnly: true },
        ],
      },
    });
    try {
      const alice = await server.connect({ bearer: 'alice-token-0123456789' });
      const bob = await server.connect({ bearer: 'bob-token-0123456789ab' });
      const reader = await server.connect({ bearer: 'reader-token-01234567' });
      await ok(alice, 'write_file', { root: 'workspace', path: 'alice.txt', content: 'mine' });
      const [aliceChange] = await latestIds(alice, 1);
      expect(await latestIds(bob, 10)).toEqual([]);
      const refused = await ok(bob, 'undo_changes', { ids: [aliceChange] });
      expect(refused.results[0]).toMatchObject({ outcome: 'not_undoable', reason: expect.stringContaining('no such change of yours') });
      expect(await readFile(join(server.rootPath('workspace'), 'alice.txt'), 'utf8')).toBe('mine');
      expect(await latestIds(reader, 10)).toEqual([]);
      const denied = await callTool(reader, 'undo_changes', { root: 'workspace', path: 'alice.txt' });
      expect(denied.isError).toBe(true);
      expect(denied.text).toContain('TOOL_NOT_ALLOWED');
    } finally {
      await server.stop();
    }
  });

  it('keeps the journal across a restart: listed and undone by the next process', async () => {
    const dir = await realpath(await mkdtemp(join(tmpdir(), 'mcp-fs-e2e-journal-restart-')));
    const root = join(dir, 'workspace');
    await mkdir(root);
    const config = await workspaceConfig(dir, root);
    let server: SpawnedServer | undefined;
    try {
      server = await spawnServer(config);
      let client = await server.connect();
      await writeFile(join(root, 'r.txt'), 'before restart\n');
      await ok(client, 'write_file', { root: 'workspace', path: 'r.txt', content: 'after\n' });
      await ok(client, 'remove_file', { root: 'workspace', path: 'r.txt' });
      const ids = await latestIds(client, 2);
      await server.stop();
      server = await spawnServer(config);
      client = await server.connect();
      expect(await latestIds(client, 2)).toEqual(ids);
      const { results } = await ok(client, 'undo_changes', { ids });
      expect(results.map((result: { outcome: string }) => result.outcome)).toEqual(['restored', 'restored']);
      expect(await readFile(join(root, 'r.txt'), 'utf8')).toBe('before restart\n');
    } finally {
      await server?.stop();
      await rm(dir, { recursive: true, force: true });
    }
  });
});

describe('change journal: operators (metrics, call log) and limits', () => {
  it('exports journal bytes, records, evictions and undo outcomes, logs each undo with the change ids, and evicts past max_bytes', async () => {
    const journalDir = await realpath(await mkdtemp(join(tmpdir(), 'mcp-fs-e2e-journal-ops-')));
    // Records (under 1 KB each) take less than a quarter of max_bytes, so before-images are what is evicted: three of 6,000 bytes do not fit.
    const server = await startTestServer({ journal: { dir: join(journalDir, 'j'), maxBytes: 20_000, maxFileBytes: 7000, retentionHours: 1 } });
    try {
      const client = await server.connect();
      const root = server.rootPath('workspace');
      for (const name of ['a', 'b', 'c']) await writeFile(join(root, `${name}.txt`), `${name}`.repeat(6000));
      await writeFile(join(root, 'big.txt'), 'x'.repeat(7001));
      for (const name of ['a', 'b', 'c', 'big']) await ok(client, 'write_file', { root: 'workspace', path: `${name}.txt`, content: 'new' });
      const { changes } = await ok(client, 'list_changes', {});
      expect(changes.map((change: { path: string; undoable: boolean; reason?: string }) => [change.path, change.undoable, change.reason?.split(':')[0]])).toEqual([
        ['big.txt', false, 'the file was larger than the journal keeps (7001 bytes > journal.max_file_bytes 7000), so its previous content was not kept'],
        ['c.txt', true, undefined],
        ['b.txt', true, undefined],
        ['a.txt', false, 'evicted'],
      ]);
      const ids = changes.map((change: { id: string }) => change.id);
      await ok(client, 'undo_changes', { ids: ids.slice(0, 2) });
      const body = await (await fetch(`${server.baseUrl}/metrics`)).text();
      const sample = (series: string) => Number(body.split('\n').find((line) => line.startsWith(`${series} `))?.slice(series.length + 1));
      expect(sample('mcp_fs_journal_evictions_total')).toBeGreaterThanOrEqual(1);
      expect(sample('mcp_fs_journal_records')).toBe(5);
      expect(sample('mcp_fs_journal_bytes')).toBeLessThanOrEqual(20_000);
      expect(sample('mcp_fs_undo_outcomes_total{outcome="restored"}')).toBe(1);
      expect(sample('mcp_fs_undo_outcomes_total{outcome="not_undoable"}')).toBe(1);
      const logged = server.logger.entries.filter((entry) => entry.message === 'tool call' && entry.fields?.tool === 'undo_changes');
      expect(logged).toHaveLength(1);
      expect(logged[0].fields).toMatchObject({ principal: expect.any(String), session: expect.any(String), path: `ids ${ids.slice(0, 2).join(',')}`, outcome: 'success' });
      expect(JSON.stringify(server.logger.entries)).not.toContain(journalDir);
    } finally {
      await server.stop();
      await rm(journalDir, { recursive: true, force: true });
    }
  });

  it('never lets a tool reach the journal: a journal dir inside a root refuses to start', async () => {
    const dir = await realpath(await mkdtemp(join(tmpdir(), 'mcp-fs-e2e-journal-inside-')));
    try {
      const root = join(dir, 'workspace');
      await mkdir(root);
      const config = await workspaceConfig(dir, root);
      await expect(spawnServer(config, { MCP_FS_JOURNAL_DIR: join(root, '.journal') })).rejects.toThrow('server exited with 1');
      await expect(readdir(root)).resolves.toEqual([]);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});
