import { promises as fs } from 'node:fs';
import { join } from 'node:path';
import { callTool, type ToolCallOutcome } from '../support/mcp.js';
import { useTestServer } from '../support/live-server.js';
import { expectError, pathExists, snapshotTree, writeTree } from '../support/fixtures.js';

const live = useTestServer({ roots: [{ name: 'workspace' }, { name: 'docs', allowedTools: ['file_read'] }] });

beforeAll(async () => {
  await writeTree(live.root, {
    'README.md': '# repo\n',
    'src/main.ts': 'export {};\n',
    'src/util.ts': 'export const u = 1;\n',
    'src/style.css': 'a {}\n',
    'src/.env.example': 'A=\n',
    'src/nested/': '',
  });
  await writeTree(live.server.rootPath('docs'), { 'guide.md': '# guide\n' });
});

function structured(outcome: ToolCallOutcome): any {
  if (outcome.isError) throw new Error(`expected success, got: ${outcome.text}`);
  expect(outcome.structured).toBeDefined();
  return outcome.structured;
}

describe('file_read over MCP', () => {
  it('Read existing file: the contents as a string (text and structured)', async () => {
    const outcome = await callTool(live.client, 'file_read', { path: '/workspace/src/main.ts' });
    expect(outcome.text).toBe('export {};\n');
    expect(structured(outcome)).toEqual({ path: '/workspace/src/main.ts', content: 'export {};\n', size: 11, binary: false });
  });

  it('Read non-existent file: NOT_FOUND', async () => {
    expectError(await callTool(live.client, 'file_read', { path: 'src/missing.ts' }), 'NOT_FOUND', '/workspace/src/missing.ts');
  });

  it('Read file outside repo: ACCESS_DENIED, no content, no host path', async () => {
    await fs.symlink('/etc/passwd', join(live.root, 'passwd-link'));
    for (const path of ['../../etc/passwd', '/workspace/../../etc/passwd', 'passwd-link']) {
      const outcome = await callTool(live.client, 'file_read', { path });
      expectError(outcome, 'ACCESS_DENIED');
      expect(outcome.text).not.toContain('root:x:');
      expect(outcome.text).not.toContain(live.root);
    }
  });

  it('a host path is not a namespace path: NOT_FOUND', async () => {
    expectError(await callTool(live.client, 'file_read', { path: join(live.root, 'README.md') }), 'NOT_FOUND');
  });

  it('reads other roots through the namespace', async () => {
    expect(structured(await callTool(live.client, 'file_read', { path: '/docs/guide.md' })).content).toBe('# guide\n');
  });
});

describe('file_write over MCP', () => {
  it('Write new file: created with parents, success confirmed', async () => {
    const result = structured(await callTool(live.client, 'file_write', { path: '/workspace/gen/deep/out.txt', content: 'generated\n' }));
    expect(result).toEqual({ path: '/workspace/gen/deep/out.txt', size: 10, created: true });
    expect(await fs.readFile(join(live.root, 'gen/deep/out.txt'), 'utf8')).toBe('generated\n');
  });

  it('Overwrite existing file: replaced, success confirmed', async () => {
    await writeTree(live.root, { 'over.txt': 'old\n' });
    expect(structured(await callTool(live.client, 'file_write', { path: 'over.txt', content: 'new\n' }))).toEqual({
      path: '/workspace/over.txt',
      size: 4,
      created: false,
    });
    expect(await fs.readFile(join(live.root, 'over.txt'), 'utf8')).toBe('new\n');
  });

  it('Write outside repo: ACCESS_DENIED and nothing written', async () => {
    const parent = join(live.root, '..');
    expectError(await callTool(live.client, 'file_write', { path: '../escape.txt', content: 'x' }), 'ACCESS_DENIED');
    expect(await pathExists(join(parent, 'escape.txt'))).toBe(false);
    expectError(await callTool(live.client, 'file_write', { path: '/docs/new.md', content: 'x' }), 'TOOL_NOT_ALLOWED', 'tool file_write not allowed on root docs');
  });
});

describe('file_list over MCP', () => {
  it('List directory: files and subdirectories with metadata', async () => {
    const result = structured(await callTool(live.client, 'file_list', { path: '/workspace/src' }));
    expect(result.path).toBe('/workspace/src');
    expect(result.entries.map((entry: any) => [entry.name, entry.type])).toEqual([
      ['.env.example', 'file'],
      ['main.ts', 'file'],
      ['nested', 'directory'],
      ['style.css', 'file'],
      ['util.ts', 'file'],
    ]);
    expect(result.entries[1]).toMatchObject({ path: '/workspace/src/main.ts', size: 11, modified_at: expect.stringMatching(/^\d{4}-\d\d-\d\dT/) });
    expect(result.count).toBe(5);
  });

  it('List with pattern: only matching files', async () => {
    const result = structured(await callTool(live.client, 'file_list', { path: 'src', pattern: '*.ts' }));
    expect(result.entries.map((entry: any) => entry.name)).toEqual(['main.ts', 'util.ts']);
  });

  it('link targets: namespace paths inside the roots, a marker for anything leaving the root, never a host path', async () => {
    await writeTree(live.root, { 'links/': '' });
    await fs.symlink('../src/main.ts', join(live.root, 'links/in-root'));
    await fs.symlink(join(live.server.rootPath('docs'), 'guide.md'), join(live.root, 'links/other-root'));
    await fs.symlink('/usr/local/bin', join(live.root, 'links/bin'));
    await fs.symlink(`/proc/self/root${live.root}/README.md`, join(live.root, 'links/alias'));
    const outcome = await callTool(live.client, 'file_list', { path: '/workspace/links' });
    expect(structured(outcome).entries.map((entry: any) => [entry.name, entry.target])).toEqual([
      ['alias', '[outside the root]'],
      ['bin', '[outside the root]'],
      ['in-root', '/workspace/src/main.ts'],
      ['other-root', '/docs/guide.md'],
    ]);
    expect(JSON.stringify(outcome)).not.toContain(live.root);
    expect(JSON.stringify(outcome)).not.toContain('/usr/local/bin');
  });

  it('List non-existent directory: NOT_FOUND', async () => {
    expectError(await callTool(live.client, 'file_list', { path: 'nope' }), 'NOT_FOUND', 'directory not found: /workspace/nope');
  });
});

describe('path validation over MCP', () => {
  it('Reject path traversal: .. escaping the root is ACCESS_DENIED and nothing happens', async () => {
    const before = await snapshotTree(live.root);
    for (const [tool, args] of [
      ['file_read', { path: '../../../etc/hostname' }],
      ['file_write', { path: 'src/../../x.txt', content: 'x' }],
      ['file_list', { path: '..' }],
    ] as const) {
      expectError(await callTool(live.client, tool, args), 'ACCESS_DENIED');
    }
    expect(await snapshotTree(live.root)).toEqual(before);
  });

  it('Accept absolute path within repo: normalised and used', async () => {
    const result = structured(await callTool(live.client, 'file_read', { path: '/workspace/src/./nested/../util.ts' }));
    expect(result.path).toBe('/workspace/src/util.ts');
    expect(structured(await callTool(live.client, 'file_list', { path: '/workspace/src/nested/..', pattern: 'util*' })).path).toBe('/workspace/src');
  });

  it('relative paths follow the session cwd', async () => {
    structured(await callTool(live.client, 'change_directory', { path: '/workspace/src' }));
    expect(structured(await callTool(live.client, 'file_read', { path: 'main.ts' })).path).toBe('/workspace/src/main.ts');
    structured(await callTool(live.client, 'change_directory', { path: '/workspace' }));
  });
});
