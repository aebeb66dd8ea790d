import { join } from 'node:path';
import { useTestServer } from '../support/live-server.js';
import { callTool } from '../support/mcp.js';
import { expectError, pathExists, snapshotTree, writeTree } from '../support/fixtures.js';

const live = useTestServer({
  roots: [
    { name: 'workspace', allowedTools: ['*'] },
    { name: 'logs', allowedTools: ['*'] },
  ],
});

describe('error handling', () => {
  it('E2E-072: invalid root name', async () => {
    await writeTree(live.root, { 'a.txt': 'a' });
    const calls: [string, Record<string, unknown>][] = [
      ['list_folder', { root: 'nonexistent', path: '.' }],
      ['read_file', { root: 'nonexistent', path: 'a.txt' }],
      ['write_file', { root: 'nonexistent', path: 'a.txt', content: 'x' }],
      ['remove_file', { root: 'nonexistent', path: 'a.txt' }],
      ['patch_file', { root: 'nonexistent', path: 'a.txt', patch: '--- a/a.txt\n+++ b/a.txt\n@@ -1 +1 @@\n-a\n+b\n' }],
      ['create_folder', { root: 'nonexistent', path: 'd' }],
      ['remove_folder', { root: 'nonexistent', path: 'd' }],
      ['stat_file', { root: 'nonexistent', path: 'a.txt' }],
      ['hash_file', { root: 'nonexistent', path: 'a.txt', algorithm: 'sha256' }],
      ['permissions_file', { root: 'nonexistent', path: 'a.txt' }],
      ['grep', { root: 'nonexistent', pattern: 'a' }],
      ['glob', { root: 'nonexistent', pattern: '*' }],
      ['copy', { source_root: 'nonexistent', source_path: 'a.txt', dest_root: 'workspace', dest_path: 'b.txt' }],
      ['copy', { source_root: 'workspace', source_path: 'a.txt', dest_root: 'nonexistent', dest_path: 'b.txt' }],
      ['move', { source_root: 'workspace', source_path: 'a.txt', dest_root: 'nonexistent', dest_path: 'b.txt' }],
    ];
    const before = await snapshotTree(live.root);

    for (const [tool, args] of calls) {
      const outcome = await callTool(live.client, tool, args);
      expect({ tool, text: outcome.text, isError: outcome.isError }).toEqual({ tool, text: 'UNKNOWN_ROOT: unknown root: nonexistent', isError: true });
    }
    expect(await snapshotTree(live.root)).toEqual(before);
  });

  it('E2E-073: missing required parameters', async () => {
    const noRoot = await callTool(live.client, 'read_file', { path: 'a.txt' });
    expect(noRoot.isError).toBe(true);
    expect(noRoot.text).toMatch(/\broot\b.*\brequired\b|\brequired\b.*\broot\b/i);

    const noPath = await callTool(live.client, 'read_file', { root: 'workspace' });
    expect(noPath.isError).toBe(true);
    expect(noPath.text).toMatch(/\bpath\b.*\brequired\b|\brequired\b.*\bpath\b/i);
  });

  it('E2E-074: invalid write mode', async () => {
    const outcome = await callTool(live.client, 'write_file', { root: 'workspace', path: 'mode.txt', content: 'x', mode: 'truncate' });
    expectError(outcome, 'INVALID_ARGUMENT', 'truncate', 'overwrite', 'append', 'create_only');
    expect(await pathExists(join(live.root, 'mode.txt'))).toBe(false);
  });

  it('E2E-075: invalid hash algorithm', async () => {
    await writeTree(live.root, { 'h.txt': 'hash me' });
    const outcome = await callTool(live.client, 'hash_file', { root: 'workspace', path: 'h.txt', algorithm: 'sha512' });
    expectError(outcome, 'INVALID_ARGUMENT', 'unsupported hash algorithm: sha512', 'md5, sha1, sha256');
  });

  it('E2E-076: invalid glob/regex syntax', async () => {
    const outcome = await callTool(live.client, 'glob', { root: 'workspace', regex: '[unclosed' });
    // The engine's own parse message follows, e.g. `missing ]: [unclosed`.
    expectError(outcome, 'INVALID_ARGUMENT', /invalid (pattern|regex)\b.*: .*\S/i, '[unclosed');
  });
});
