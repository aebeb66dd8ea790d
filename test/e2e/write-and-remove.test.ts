import { promises as fs } from 'node:fs';
import { join } from 'node:path';
import { useTestServer } from '../support/live-server.js';
import { callTool } from '../support/mcp.js';
import { expectError, ok, pathExists, snapshotTree, writeTree } from '../support/fixtures.js';

const live = useTestServer();

async function readBack(path: string): Promise<string> {
  return ok(await callTool(live.client, 'read_file', { root: 'workspace', path })).content;
}

describe('write_file', () => {
  it('E2E-014: write_file — overwrite mode', async () => {
    await writeTree(live.root, { 'existing.txt': 'old content' });

    const written = ok(await callTool(live.client, 'write_file', { root: 'workspace', path: 'existing.txt', content: 'new content', mode: 'overwrite' }));
    expect(written).toMatchObject({ path: 'existing.txt', size: 11, mode: 'overwrite' });
    expect(await readBack('existing.txt')).toBe('new content');
    expect(await fs.readFile(join(live.root, 'existing.txt'), 'utf8')).toBe('new content');
  });

  it('E2E-015: write_file — append mode', async () => {
    await writeTree(live.root, { 'log.txt': 'line1\n' });

    const written = ok(await callTool(live.client, 'write_file', { root: 'workspace', path: 'log.txt', content: 'line2\n', mode: 'append' }));
    expect(written).toMatchObject({ path: 'log.txt', mode: 'append' });
    expect(await readBack('log.txt')).toBe('line1\nline2\n');
  });

  it('E2E-016: write_file — create_only mode, file absent', async () => {
    expect(await pathExists(join(live.root, 'new.txt'))).toBe(false);

    const written = ok(await callTool(live.client, 'write_file', { root: 'workspace', path: 'new.txt', content: 'created', mode: 'create_only' }));
    expect(written).toMatchObject({ path: 'new.txt', size: 7, mode: 'create_only' });
    expect(await readBack('new.txt')).toBe('created');
  });

  it('E2E-017: write_file — create_only mode, file exists', async () => {
    await writeTree(live.root, { 'exists-already.txt': 'original' });

    const outcome = await callTool(live.client, 'write_file', { root: 'workspace', path: 'exists-already.txt', content: 'nope', mode: 'create_only' });
    expectError(outcome, 'ALREADY_EXISTS', 'file already exists: exists-already.txt', 'overwrite');
    expect(await readBack('exists-already.txt')).toBe('original');
  });

  it('E2E-018: write_file — auto-create parent directories', async () => {
    expect(await pathExists(join(live.root, 'deep'))).toBe(false);

    ok(await callTool(live.client, 'write_file', { root: 'workspace', path: 'deep/nested/dir/file.txt', content: 'deep' }));
    expect(await readBack('deep/nested/dir/file.txt')).toBe('deep');
    expect((await fs.stat(join(live.root, 'deep/nested/dir'))).isDirectory()).toBe(true);
  });
});

describe('remove_file', () => {
  it('E2E-019: remove_file — happy path', async () => {
    await writeTree(live.root, { 'to_delete.txt': 'bye', 'keep.txt': 'stay' });

    const removed = ok(await callTool(live.client, 'remove_file', { root: 'workspace', path: 'to_delete.txt' }));
    expect(removed).toMatchObject({ path: 'to_delete.txt', removed: true });
    expectError(await callTool(live.client, 'stat_file', { root: 'workspace', path: 'to_delete.txt' }), 'NOT_FOUND', 'to_delete.txt');
    expect(await pathExists(join(live.root, 'to_delete.txt'))).toBe(false);
    expect(await fs.readFile(join(live.root, 'keep.txt'), 'utf8')).toBe('stay');
  });

  it('E2E-020: remove_file — file not found', async () => {
    const before = await snapshotTree(live.root);
    expectError(await callTool(live.client, 'remove_file', { root: 'workspace', path: 'ghost.txt' }), 'NOT_FOUND', 'file not found: ghost.txt', 'workspace');
    expect(await snapshotTree(live.root)).toEqual(before);
  });

  it('E2E-021: remove_file — target is directory', async () => {
    await writeTree(live.root, { 'mydir/inside.txt': 'x' });

    expectError(await callTool(live.client, 'remove_file', { root: 'workspace', path: 'mydir' }), 'IS_A_DIRECTORY', 'mydir');
    expect(await fs.readFile(join(live.root, 'mydir/inside.txt'), 'utf8')).toBe('x');
  });
});
