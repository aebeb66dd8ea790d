import { promises as fs } from 'node:fs';
import { mkdtemp, realpath, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { callTool } from '../support/mcp.js';
import { useTestServer } from '../support/live-server.js';
import { expectError, success, writeTree } from '../support/fixtures.js';

const live = useTestServer();

/** Several edits, a whitespace-drifted old_str and dry runs, through one client; the file path is in /<root>/. */
async function editJourney(client: Client, hostDir: string, namespaceDir: string): Promise<void> {
  await fs.writeFile(join(hostDir, 'j.go'), 'func f() {\n\tif x {\n\t\treturn 1\n\t}\n\treturn 2\n}\n');
  const path = `${namespaceDir}/j.go`;
  success(await callTool(client, 'view', { path }));

  const dry = success(await callTool(client, 'str_replace', { path, edits: [{ old_str: 'return 2', new_str: 'return 3' }], dry_run: true }));
  const diff = `--- a${path}\n+++ b${path}\n@@ -2,5 +2,5 @@\n \tif x {\n \t\treturn 1\n \t}\n-\treturn 2\n+\treturn 3\n }\n`;
  expect(dry.structured).toEqual({ path, replacements: 1, replacements_per_edit: [1], size: 45, match: 'exact', dry_run: true, diff });
  expect(dry.text).toBe(`Dry run: nothing written. Would replace 1 occurrence in ${path} with 1 edit (1).\n${diff}`);
  expect(await fs.readFile(join(hostDir, 'j.go'), 'utf8')).toContain('return 2');

  const edited = success(await callTool(client, 'str_replace', {
    path,
    edits: [{ old_str: '    if x {\n        return 1\n    }', new_str: '    if x {\n        return 10\n    }' }, { old_str: 'return 2', new_str: 'return 20' }],
  }));
  expect(edited.structured).toMatchObject({ replacements: 2, replacements_per_edit: [1, 1], match: 'whitespace_tolerant' });
  expect(edited.text).toContain('Edit 1: old_str matched only with leading and trailing whitespace ignored (whitespace_tolerant)');
  expect(await fs.readFile(join(hostDir, 'j.go'), 'utf8')).toBe('func f() {\n\tif x {\n\t\treturn 10\n\t}\n\treturn 20\n}\n');

  const failed = await callTool(client, 'str_replace', { path, edits: [{ old_str: 'return 20', new_str: 'x' }, { old_str: 'if y {', new_str: 'z' }] });
  expectError(failed, 'NO_MATCH', /^NO_MATCH: edit 2 of 2: old_str not found/, 'The most similar region is lines 2-2', '   2\t\tif x {');
  expect(failed.structured).toBeUndefined();
  expect(await fs.readFile(join(hostDir, 'j.go'), 'utf8')).toContain('return 20');
}

describe('str_replace edits[], whitespace drift and dry runs over HTTP', () => {
  it('dry run, then the edits it showed, then an all-or-nothing failure naming the edit', async () => {
    await fs.mkdir(join(live.root, 'ed'), { recursive: true });
    await editJourney(live.client, join(live.root, 'ed'), '/workspace/ed');
  });

  it('dry_run on write_file, patch_file and create_file: the diff, nothing written', async () => {
    await writeTree(live.root, { 'dr/w.txt': 'a\nb\n' });
    const write = success(await callTool(live.client, 'write_file', { root: 'workspace', path: 'dr/w.txt', content: 'a\nB\n', dry_run: true }));
    expect(write.structured).toEqual({ path: 'dr/w.txt', size: 4, mode: 'overwrite', dry_run: true, diff: '--- a/dr/w.txt\n+++ b/dr/w.txt\n@@ -1,2 +1,2 @@\n a\n-b\n+B\n' });
    expect(write.text).toBe(`Dry run: nothing written. Would write 4 bytes to dr/w.txt.\n${write.structured.diff}`);
    const patch = success(await callTool(live.client, 'patch_file', { root: 'workspace', path: 'dr/w.txt', patch: '@@ -1,2 +1,2 @@\n-a\n+A\n b\n', dry_run: true }));
    expect(patch.structured).toMatchObject({ hunks_applied: 1, created: false, dry_run: true, diff: '--- a/dr/w.txt\n+++ b/dr/w.txt\n@@ -1,2 +1,2 @@\n-a\n+A\n b\n' });
    const create = success(await callTool(live.client, 'create_file', { path: '/workspace/dr/new.txt', content: 'n\n', dry_run: true }));
    expect(create.structured).toEqual({ path: '/workspace/dr/new.txt', size: 2, created: true, dry_run: true, diff: '--- a/workspace/dr/new.txt\n+++ b/workspace/dr/new.txt\n@@ -0,0 +1,1 @@\n+n\n' });
    expect(await fs.readFile(join(live.root, 'dr/w.txt'), 'utf8')).toBe('a\nb\n');
    await expect(fs.stat(join(live.root, 'dr/new.txt'))).rejects.toMatchObject({ code: 'ENOENT' });
    expectError(await callTool(live.client, 'write_file', { root: 'workspace', path: 'dr/w.txt', content: 'x', mode: 'append', dry_run: true }), 'INVALID_ARGUMENT', 'overwrite mode only');
  });
});

describe('the same over stdio (child process)', () => {
  let dir: string;
  let client: Client | undefined;
  beforeAll(async () => {
    dir = await realpath(await mkdtemp(join(tmpdir(), 'mcp-fs-edits-')));
  });
  afterAll(async () => {
    await client?.close();
    await rm(dir, { recursive: true, force: true });
  });

  it('dry run, edits with whitespace drift, NO_MATCH naming the edit', async () => {
    const transport = new StdioClientTransport({ command: process.execPath, args: [join(process.cwd(), 'dist', 'main.js'), '--stdio', dir], env: { PATH: process.env.PATH ?? '', MCP_FS_LOG_LEVEL: 'error' }, stderr: 'pipe' });
    client = new Client({ name: 'edits-stdio', version: '1' });
    await client.connect(transport);
    await editJourney(client, dir, `/${basename(dir)}`);
  });
});
