import { promises as fs } from 'node:fs';
import { join } from 'node:path';
import { startTestServer, type TestServer } from '../support/server.js';
import { callTool } from '../support/mcp.js';
import { expectAllToolsAllowed, ok, sha256, writeTree } from '../support/fixtures.js';

let server: TestServer | undefined;

afterEach(async () => {
  await server?.stop();
  server = undefined;
});

describe('core journeys', () => {
  it('E2E-001: read, modify, verify file workflow', async () => {
    server = await startTestServer();
    await writeTree(server.rootPath('workspace'), { 'hello.txt': 'Hello World\n' });
    const client = await server.connect();

    const first = ok(await callTool(client, 'read_file', { root: 'workspace', path: 'hello.txt' }));
    expect(first.content).toBe('Hello World\n');
    expect(first.size).toBe(12);
    expect(first.truncated).toBe(false);

    const patch = ['--- a/hello.txt', '+++ b/hello.txt', '@@ -1 +1 @@', '-Hello World', '+Hello Agent', ''].join('\n');
    const patched = ok(await callTool(client, 'patch_file', { root: 'workspace', path: 'hello.txt', patch }));
    expect(patched.hunks_applied).toBe(1);

    const second = ok(await callTool(client, 'read_file', { root: 'workspace', path: 'hello.txt' }));
    expect(second.content).toBe('Hello Agent\n');

    const hashed = ok(await callTool(client, 'hash_file', { root: 'workspace', path: 'hello.txt', algorithm: 'sha256' }));
    expect(hashed).toMatchObject({ algorithm: 'sha256', hash: sha256('Hello Agent\n'), size: 12 });
  });

  it('E2E-002: multi-root discovery and cross-root copy', async () => {
    server = await startTestServer({
      roots: [
        { name: 'source', allowedTools: ['*'] },
        { name: 'dest', allowedTools: ['*'] },
      ],
    });
    const client = await server.connect();

    const listed = await callTool(client, 'list_roots', {});
    const roots = ok(listed).roots;
    expect(roots.map((r: { name: string }) => r.name).sort()).toEqual(['dest', 'source']);
    for (const root of roots) expectAllToolsAllowed(root.allowed_tools);
    for (const hostPath of [server.rootPath('source'), server.rootPath('dest')]) {
      expect(listed.text).not.toContain(hostPath);
      expect(JSON.stringify(listed.structured)).not.toContain(hostPath);
    }

    const written = ok(await callTool(client, 'write_file', { root: 'source', path: 'data.txt', content: 'important data' }));
    expect(written.size).toBe(14);
    expect(await fs.readFile(join(server.rootPath('source'), 'data.txt'), 'utf8')).toBe('important data');

    ok(await callTool(client, 'copy', { source_root: 'source', source_path: 'data.txt', dest_root: 'dest', dest_path: 'data.txt' }));

    const read = ok(await callTool(client, 'read_file', { root: 'dest', path: 'data.txt' }));
    expect(read.content).toBe('important data');
    expect(await fs.readFile(join(server.rootPath('source'), 'data.txt'), 'utf8')).toBe('important data');
  });

  it('E2E-003: search codebase and patch file', async () => {
    server = await startTestServer();
    await writeTree(server.rootPath('workspace'), {
      'main.go': 'package main\n\n// TODO: parse flags\nfunc main() {\n\trun()\n}\n',
      'pkg/util/util.go': 'package util\n\nfunc Add(a, b int) int {\n\t// TODO: handle overflow\n\treturn a + b\n}\n',
      'pkg/util/strings.go': 'package util\n\n// TODO: unicode\nfunc Upper(s string) string { return s }\n',
      'README.md': '# TODO: write docs\n',
    });
    const client = await server.connect();
    const grepArgs = { root: 'workspace', pattern: 'TODO', glob_filter: '*.go', context_lines: 1 };

    const before = ok(await callTool(client, 'grep', grepArgs));
    expect(before.total_matches).toBe(3);
    expect(before.matches).toHaveLength(3);
    const byFile = Object.fromEntries(before.matches.map((m: { file: string }) => [m.file, m]));
    expect(Object.keys(byFile).sort()).toEqual(['main.go', 'pkg/util/strings.go', 'pkg/util/util.go']);
    expect(byFile['pkg/util/util.go']).toMatchObject({
      line_number: 4,
      line_content: '\t// TODO: handle overflow',
      context_before: ['func Add(a, b int) int {'],
      context_after: ['\treturn a + b'],
    });
    expect(byFile['main.go']).toMatchObject({ line_number: 3, context_before: [''], context_after: ['func main() {'] });

    const globbed = ok(await callTool(client, 'glob', { root: 'workspace', pattern: '**/*.go' }));
    expect(globbed.matches.map((m: { path: string }) => m.path)).toEqual(['main.go', 'pkg/util/strings.go', 'pkg/util/util.go']);

    const patch = [
      '--- a/pkg/util/util.go',
      '+++ b/pkg/util/util.go',
      '@@ -3,4 +3,7 @@',
      ' func Add(a, b int) int {',
      '-\t// TODO: handle overflow',
      '+\tif a > 0 && b > math.MaxInt-a {',
      '+\t\tpanic("overflow")',
      '+\t}',
      ' \treturn a + b',
      ' }',
      '',
    ].join('\n');
    const patched = ok(await callTool(client, 'patch_file', { root: 'workspace', path: 'pkg/util/util.go', patch }));
    expect(patched.hunks_applied).toBe(1);

    const after = ok(await callTool(client, 'grep', grepArgs));
    expect(after.total_matches).toBe(2);
    expect(after.matches.map((m: { file: string }) => m.file).sort()).toEqual(['main.go', 'pkg/util/strings.go']);
  });
});
