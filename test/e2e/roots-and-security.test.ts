import { promises as fs } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { useTestServer } from '../support/live-server.js';
import { startTestServer } from '../support/server.js';
import { callTool, type ToolCallOutcome } from '../support/mcp.js';
import { expectAllToolsAllowed, expectError, ok, pathExists, snapshotTree, writeTree } from '../support/fixtures.js';

const CONFIG_TOOLS = ['list_folder', 'read_file', 'stat_file', 'grep', 'glob'];
const LOGS_TOOLS = ['list_folder', 'read_file', 'stat_file', 'grep'];

const live = useTestServer({
  roots: [
    { name: 'workspace', allowedTools: ['*'] },
    { name: 'readonly', allowedTools: ['list_folder', 'read_file'] },
    { name: 'restricted', allowedTools: ['list_folder'] },
    { name: 'dest', allowedTools: ['*'] },
    { name: 'source', allowedTools: ['*'] },
  ],
});

/** A directory outside every root, made by this test file. */
let outside: string;

beforeAll(async () => {
  outside = await fs.mkdtemp(join(tmpdir(), 'e2e-outside-'));
  await writeTree(outside, { 'secret.txt': 'TOP SECRET OUTSIDE DATA\n' });
});

afterAll(async () => {
  if (outside) await fs.rm(outside, { recursive: true, force: true });
});

/** Whole outcome as one string: text, every content block and the structured result. */
function everything(outcome: ToolCallOutcome): string {
  return JSON.stringify({ text: outcome.text, content: outcome.content, structured: outcome.structured });
}

describe('list_roots', () => {
  it('E2E-061: list_roots — returns configured roots', async () => {
    const three = await startTestServer({
      roots: [
        { name: 'workspace', allowedTools: ['*'] },
        { name: 'config', allowedTools: CONFIG_TOOLS },
        { name: 'logs', allowedTools: LOGS_TOOLS },
      ],
    });
    try {
      const { roots } = ok(await callTool(await three.connect(), 'list_roots', {}));
      const byName = new Map<string, string[]>(roots.map((r: { name: string; allowed_tools: string[] }) => [r.name, r.allowed_tools]));

      expect([...byName.keys()].sort()).toEqual(['config', 'logs', 'workspace']);
      expect([...byName.get('config')!].sort()).toEqual([...CONFIG_TOOLS].sort());
      expect([...byName.get('logs')!].sort()).toEqual([...LOGS_TOOLS].sort());
      expectAllToolsAllowed(byName.get('workspace')!);
    } finally {
      await three.stop();
    }
  });

  it('E2E-062: list_roots — does not expose host paths', async () => {
    const outcome = await callTool(live.client, 'list_roots', {});
    ok(outcome);
    const json = everything(outcome);
    for (const name of ['workspace', 'readonly', 'restricted', 'dest', 'source']) {
      expect(json).not.toContain(live.server.rootPath(name));
    }
    expect(json).not.toContain('/tmp');
    expect(json).not.toContain(tmpdir());
  });
});

describe('confinement', () => {
  it('E2E-063: path traversal via .. rejected', async () => {
    const outcome = await callTool(live.client, 'read_file', { root: 'workspace', path: '../../etc/passwd' });
    expectError(outcome, 'ACCESS_DENIED', 'path resolves outside root boundary', '(root: workspace)');
    expect(everything(outcome)).not.toContain('root:x:0:0');
  });

  it('E2E-064: symlink escape to outside root rejected', async () => {
    await fs.symlink(outside, join(live.root, 'escape'));

    const outcome = await callTool(live.client, 'list_folder', { root: 'workspace', path: 'escape' });
    expectError(outcome, 'ACCESS_DENIED', 'path resolves outside root boundary', 'escape');
    expect(everything(outcome)).not.toContain('secret.txt');
    expect(everything(outcome)).not.toContain(outside);

    const through = await callTool(live.client, 'read_file', { root: 'workspace', path: 'escape/secret.txt' });
    expectError(through, 'ACCESS_DENIED', 'path resolves outside root boundary');
    expect(everything(through)).not.toContain('TOP SECRET');
  });

  it('E2E-065: symlink within root followed successfully', async () => {
    await writeTree(live.root, { 'real.txt': 'the real content\n' });
    await fs.symlink('real.txt', join(live.root, 'link.txt'));

    const read = ok(await callTool(live.client, 'read_file', { root: 'workspace', path: 'link.txt' }));
    expect(read.content).toBe('the real content\n');
  });

  it('E2E-069: remove_folder with symlink to outside root', async () => {
    await writeTree(live.root, { 'dir/own.txt': 'inside' });
    await fs.symlink(outside, join(live.root, 'dir/escape'));
    const outsideBefore = await snapshotTree(outside);

    const removed = ok(await callTool(live.client, 'remove_folder', { root: 'workspace', path: 'dir' }));
    expect(removed).toMatchObject({ path: 'dir', removed: true });
    expect(await pathExists(join(live.root, 'dir'))).toBe(false);
    expect(await snapshotTree(outside)).toEqual(outsideBefore);
    expect(await fs.readFile(join(outside, 'secret.txt'), 'utf8')).toBe('TOP SECRET OUTSIDE DATA\n');
  });

  it('E2E-070: null bytes in path rejected', async () => {
    await writeTree(live.root, { 'file': 'prefix before the NUL' });

    const outcome = await callTool(live.client, 'read_file', { root: 'workspace', path: 'file\u0000.txt' });
    expectError(outcome, 'INVALID_PATH', 'null byte');
    expect(everything(outcome)).not.toContain('prefix before the NUL');
  });

  it('E2E-071: double-encoded path traversal rejected', async () => {
    const passwd = await fs.readFile('/etc/passwd', 'utf8').catch(() => 'root:x:0:0');
    const firstLine = passwd.split('\n')[0];

    const outcome = await callTool(live.client, 'read_file', { root: 'workspace', path: '%2e%2e%2fetc%2fpasswd' });
    expect(outcome.isError).toBe(true);
    expect(outcome.text).toMatch(/^(NOT_FOUND|ACCESS_DENIED|INVALID_PATH): /);
    expect(everything(outcome)).not.toContain(firstLine);
    expect(everything(outcome)).not.toContain('root:x:0:0');
  });
});

describe('allowlists', () => {
  it('E2E-066: tool not in allowlist rejected', async () => {
    const before = await snapshotTree(live.server.rootPath('readonly'));

    const outcome = await callTool(live.client, 'write_file', { root: 'readonly', path: 'app.yaml', content: 'x: 1' });
    expectError(outcome, 'TOOL_NOT_ALLOWED', 'tool write_file not allowed on root readonly');
    expect(await snapshotTree(live.server.rootPath('readonly'))).toEqual(before);
  });

  it('E2E-067: cross-root copy denied by source allowlist', async () => {
    await writeTree(live.server.rootPath('restricted'), { 'data.txt': 'restricted data' });
    const before = await snapshotTree(live.server.rootPath('dest'));

    const outcome = await callTool(live.client, 'copy', { source_root: 'restricted', source_path: 'data.txt', dest_root: 'dest', dest_path: 'data.txt' });
    expectError(outcome, 'TOOL_NOT_ALLOWED', 'tool copy not allowed on root restricted');
    expect(await snapshotTree(live.server.rootPath('dest'))).toEqual(before);
  });

  it('E2E-068: cross-root copy denied by dest allowlist', async () => {
    await writeTree(live.server.rootPath('source'), { 'to-copy.txt': 'payload' });
    const before = await snapshotTree(live.server.rootPath('readonly'));

    const outcome = await callTool(live.client, 'copy', { source_root: 'source', source_path: 'to-copy.txt', dest_root: 'readonly', dest_path: 'to-copy.txt' });
    expectError(outcome, 'TOOL_NOT_ALLOWED', 'tool copy not allowed on root readonly');
    expect(await snapshotTree(live.server.rootPath('readonly'))).toEqual(before);
    expect(await fs.readFile(join(live.server.rootPath('source'), 'to-copy.txt'), 'utf8')).toBe('payload');
  });
});
