import { promises as fs } from 'node:fs';
import { join } from 'node:path';
import { useTestServer } from '../support/live-server.js';
import { callTool } from '../support/mcp.js';
import { expectError, ok, pathExists, snapshotTree, writeTree } from '../support/fixtures.js';

const live = useTestServer({
  roots: [
    { name: 'workspace', allowedTools: ['*'] },
    { name: 'source', allowedTools: ['*'] },
    { name: 'dest', allowedTools: ['*'] },
  ],
});

const host = (root: string, path: string) => join(live.server.rootPath(root), path);

async function readVia(root: string, path: string): Promise<string> {
  return ok(await callTool(live.client, 'read_file', { root, path })).content;
}

describe('copy', () => {
  it('E2E-041: copy — same root', async () => {
    await writeTree(live.root, { 'original.txt': 'original content\n' });

    const copied = ok(
      await callTool(live.client, 'copy', { source_root: 'workspace', source_path: 'original.txt', dest_root: 'workspace', dest_path: 'duplicate.txt' }),
    );
    expect(copied).toMatchObject({ is_directory: false, size: 17 });
    expect(JSON.stringify(copied.source)).toContain('original.txt');
    expect(JSON.stringify(copied.destination)).toContain('duplicate.txt');
    expect(await readVia('workspace', 'duplicate.txt')).toBe('original content\n');
    expect(await readVia('workspace', 'original.txt')).toBe('original content\n');
  });

  it('E2E-042: copy — cross-root', async () => {
    await writeTree(live.server.rootPath('source'), { 'file.txt': 'cross-root payload' });

    ok(await callTool(live.client, 'copy', { source_root: 'source', source_path: 'file.txt', dest_root: 'dest', dest_path: 'file.txt' }));
    expect(await readVia('dest', 'file.txt')).toBe('cross-root payload');
    expect(await readVia('source', 'file.txt')).toBe('cross-root payload');
    expect(await fs.readFile(host('dest', 'file.txt'), 'utf8')).toBe('cross-root payload');
  });

  it('E2E-043: copy — directory recursive', async () => {
    const tree = {
      'project/README.md': '# project\n',
      'project/src/main.go': 'package main\n',
      'project/src/pkg/util.go': 'package pkg\n',
      'project/docs/guide/intro.txt': 'intro\n',
    };
    await writeTree(live.root, tree);

    const copied = ok(
      await callTool(live.client, 'copy', { source_root: 'workspace', source_path: 'project', dest_root: 'workspace', dest_path: 'project-backup' }),
    );
    expect(copied.is_directory).toBe(true);

    const globbed = ok(await callTool(live.client, 'glob', { root: 'workspace', pattern: 'project-backup/**/*', type_filter: 'file' }));
    const expected = Object.keys(tree).map((p) => p.replace(/^project\//, 'project-backup/')).sort();
    expect(globbed.matches.map((m: { path: string }) => m.path).sort()).toEqual(expected);
    for (const [path, content] of Object.entries(tree)) {
      expect(await fs.readFile(host('workspace', path.replace(/^project\//, 'project-backup/')), 'utf8')).toBe(content);
    }
    expect(await snapshotTree(host('workspace', 'project-backup'))).toEqual(await snapshotTree(host('workspace', 'project')));
  });

  it('E2E-044: copy — source not found', async () => {
    const outcome = await callTool(live.client, 'copy', {
      source_root: 'workspace',
      source_path: 'missing.txt',
      dest_root: 'workspace',
      dest_path: 'copy-of-missing.txt',
    });
    expectError(outcome, 'NOT_FOUND', 'source not found: missing.txt');
    expect(await pathExists(host('workspace', 'copy-of-missing.txt'))).toBe(false);
  });
});

describe('move', () => {
  it('E2E-045: move — same root (rename)', async () => {
    await writeTree(live.root, { 'old_name.txt': 'moving content\n' });

    const moved = ok(
      await callTool(live.client, 'move', { source_root: 'workspace', source_path: 'old_name.txt', dest_root: 'workspace', dest_path: 'new_name.txt' }),
    );
    expect(JSON.stringify(moved.source)).toContain('old_name.txt');
    expect(JSON.stringify(moved.destination)).toContain('new_name.txt');
    expectError(await callTool(live.client, 'stat_file', { root: 'workspace', path: 'old_name.txt' }), 'NOT_FOUND', 'old_name.txt');
    expect(await readVia('workspace', 'new_name.txt')).toBe('moving content\n');
  });

  it('E2E-046: move — cross-root', async () => {
    await writeTree(live.server.rootPath('source'), { 'moved.txt': 'travelling bytes' });

    ok(await callTool(live.client, 'move', { source_root: 'source', source_path: 'moved.txt', dest_root: 'dest', dest_path: 'moved.txt' }));
    expect(await readVia('dest', 'moved.txt')).toBe('travelling bytes');
    expectError(await callTool(live.client, 'stat_file', { root: 'source', path: 'moved.txt' }), 'NOT_FOUND', 'moved.txt');
    expect(await pathExists(host('source', 'moved.txt'))).toBe(false);
  });

  it('E2E-047: move — source not found', async () => {
    const before = await snapshotTree(live.root);
    const outcome = await callTool(live.client, 'move', {
      source_root: 'workspace',
      source_path: 'missing.txt',
      dest_root: 'workspace',
      dest_path: 'moved-missing.txt',
    });
    expectError(outcome, 'NOT_FOUND', 'source not found: missing.txt');
    expect(await snapshotTree(live.root)).toEqual(before);
  });
});
