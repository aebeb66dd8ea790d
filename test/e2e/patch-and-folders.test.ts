import { promises as fs } from 'node:fs';
import { join } from 'node:path';
import { useTestServer } from '../support/live-server.js';
import { callTool } from '../support/mcp.js';
import { expectError, ok, pathExists, snapshotTree, writeTree } from '../support/fixtures.js';

const live = useTestServer();

const CODE_GO = [
  'package main',
  '',
  'import "fmt"',
  '',
  'func greet(name string) string {',
  '\treturn "Hello, " + name',
  '}',
  '',
  'func main() {',
  '\tfmt.Println(greet("world"))',
  '}',
  '',
].join('\n');

describe('patch_file', () => {
  it('E2E-022: patch_file — apply valid unified diff', async () => {
    await writeTree(live.root, { 'code.go': CODE_GO });
    const patch = [
      '--- a/code.go',
      '+++ b/code.go',
      '@@ -4,4 +4,7 @@',
      ' ',
      ' func greet(name string) string {',
      '-\treturn "Hello, " + name',
      '+\tif name == "" {',
      '+\t\tname = "stranger"',
      '+\t}',
      '+\treturn "Hi, " + name',
      ' }',
      '',
    ].join('\n');

    const patched = ok(await callTool(live.client, 'patch_file', { root: 'workspace', path: 'code.go', patch }));
    expect(patched).toMatchObject({ path: 'code.go', hunks_applied: 1 });

    const expected = CODE_GO.replace('\treturn "Hello, " + name', '\tif name == "" {\n\t\tname = "stranger"\n\t}\n\treturn "Hi, " + name');
    expect(ok(await callTool(live.client, 'read_file', { root: 'workspace', path: 'code.go' })).content).toBe(expected);
  });

  it('E2E-023: patch_file — hunk mismatch fails atomically', async () => {
    await writeTree(live.root, { 'mismatch/code.go': 'line A\nline B\nline C\n' });
    const patch = ['--- a/code.go', '+++ b/code.go', '@@ -1,3 +1,3 @@', ' line A', '-line X', '+line Y', ' line C', ''].join('\n');

    expectError(await callTool(live.client, 'patch_file', { root: 'workspace', path: 'mismatch/code.go', patch }), 'PATCH_FAILED', /hunk 1/);
    expect(ok(await callTool(live.client, 'read_file', { root: 'workspace', path: 'mismatch/code.go' })).content).toBe('line A\nline B\nline C\n');
    expect(await fs.readdir(join(live.root, 'mismatch'))).toEqual(['code.go']);
  });

  it('E2E-024: patch_file — patch creates new file', async () => {
    expect(await pathExists(join(live.root, 'new_file.txt'))).toBe(false);
    const patch = ['--- /dev/null', '+++ b/new_file.txt', '@@ -0,0 +1,2 @@', '+first line', '+second line', ''].join('\n');

    const patched = ok(await callTool(live.client, 'patch_file', { root: 'workspace', path: 'new_file.txt', patch }));
    expect(patched.hunks_applied).toBe(1);
    expect(ok(await callTool(live.client, 'read_file', { root: 'workspace', path: 'new_file.txt' })).content).toBe('first line\nsecond line\n');
  });
});

describe('create_folder', () => {
  it('E2E-025: create_folder — happy path with nested parents', async () => {
    expect(await pathExists(join(live.root, 'a'))).toBe(false);

    const created = ok(await callTool(live.client, 'create_folder', { root: 'workspace', path: 'a/b/c' }));
    expect(created).toMatchObject({ path: 'a/b/c', created: true });

    const listed = ok(await callTool(live.client, 'list_folder', { root: 'workspace', path: 'a/b' }));
    expect(listed.entries).toEqual([expect.objectContaining({ name: 'c', type: 'directory' })]);
  });

  it('E2E-026: create_folder — idempotent on existing directory', async () => {
    await writeTree(live.root, { 'existing_dir/kept.txt': 'kept' });

    const outcome = await callTool(live.client, 'create_folder', { root: 'workspace', path: 'existing_dir' });
    expect(ok(outcome).path).toBe('existing_dir');
    expect(await fs.readFile(join(live.root, 'existing_dir/kept.txt'), 'utf8')).toBe('kept');
  });

  it('E2E-027: create_folder — conflict with existing file', async () => {
    await writeTree(live.root, { conflict: 'i am a file' });

    const outcome = await callTool(live.client, 'create_folder', { root: 'workspace', path: 'conflict' });
    expect(outcome.isError).toBe(true);
    expect(outcome.text).toMatch(/^(NOT_A_DIRECTORY|ALREADY_EXISTS): /);
    expect(outcome.text).toContain('conflict');
    expect(await fs.readFile(join(live.root, 'conflict'), 'utf8')).toBe('i am a file');
  });
});

describe('remove_folder', () => {
  it('E2E-028: remove_folder — recursive delete', async () => {
    await writeTree(live.root, { 'dir/one.txt': '1', 'dir/sub/two.txt': '2', 'dir/sub/deeper/three.txt': '3', 'dir/empty/': '', 'sibling.txt': 's' });

    const removed = ok(await callTool(live.client, 'remove_folder', { root: 'workspace', path: 'dir' }));
    expect(removed).toMatchObject({ path: 'dir', removed: true });
    expectError(await callTool(live.client, 'stat_file', { root: 'workspace', path: 'dir' }), 'NOT_FOUND', 'dir');
    expect(await pathExists(join(live.root, 'dir'))).toBe(false);
    expect(await fs.readFile(join(live.root, 'sibling.txt'), 'utf8')).toBe('s');
  });

  it('E2E-029: remove_folder — refuse root directory deletion', async () => {
    await writeTree(live.root, { 'guard.txt': 'still here' });
    const before = await snapshotTree(live.root);

    for (const path of ['', '.', '/']) {
      expectError(await callTool(live.client, 'remove_folder', { root: 'workspace', path }), 'INVALID_ARGUMENT', 'cannot remove root directory');
    }
    expect(await snapshotTree(live.root)).toEqual(before);
  });

  it('E2E-030: remove_folder — target not found', async () => {
    expectError(await callTool(live.client, 'remove_folder', { root: 'workspace', path: 'nonexistent' }), 'NOT_FOUND', 'directory not found: nonexistent');
  });

  it('E2E-031: remove_folder — target is a file', async () => {
    await writeTree(live.root, { 'not_a_dir.txt': 'file' });

    expectError(await callTool(live.client, 'remove_folder', { root: 'workspace', path: 'not_a_dir.txt' }), 'NOT_A_DIRECTORY', 'not_a_dir.txt');
    expect(await fs.readFile(join(live.root, 'not_a_dir.txt'), 'utf8')).toBe('file');
  });
});
