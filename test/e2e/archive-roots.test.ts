import { execFileSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { mkdtemp, realpath, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { expectError, ok } from '../support/fixtures.js';
import { callTool } from '../support/mcp.js';
import { stdioClient } from '../support/stdio-client.js';
import { tarArchive } from '../support/tar-writer.js';

// The built server over stdio, with a directory root and two archive roots (roots[].archive).
let dir: string;
let client: Client;

beforeAll(async () => {
  dir = await realpath(await mkdtemp(join(tmpdir(), 'archive-roots-')));
  const tree = join(dir, 'tree');
  mkdirSync(join(tree, 'src', 'lib'), { recursive: true });
  writeFileSync(join(tree, 'README.md'), '# release 1.2\n');
  writeFileSync(join(tree, 'src', 'app.js'), "import { run } from './lib/run.js';\n// TODO: ship it\nrun();\n");
  writeFileSync(join(tree, 'src', 'lib', 'run.js'), 'export function run() {}\n');
  // Made by tar itself, gzipped: what a release tarball is.
  execFileSync('tar', ['-czf', join(dir, 'release.tar.gz'), '-C', tree, '.']);
  await writeFile(
    join(dir, 'hostile.tar'),
    tarArchive([
      { name: 'ok.txt', type: 'file', content: 'fine' },
      { name: '../escape.txt', type: 'file', content: 'planted' },
      { name: '/etc/planted', type: 'file', content: 'planted' },
      { name: 'passwd', type: 'symlink', linkName: '/etc/passwd' },
      { name: 'up', type: 'symlink', linkName: '..' },
      { name: 'up/planted.txt', type: 'file', content: 'planted' },
      { name: 'shadow', type: 'hardlink', linkName: '/etc/shadow' },
    ]),
  );
  mkdirSync(join(dir, 'workspace'));
  client = await stdioClient(
    dir,
    [
      'journal: { enabled: false }',
      'roots:',
      '  - { name: workspace, path: workspace, allowed_tools: ["*"] }',
      '  - { name: release, archive: release.tar.gz, allowed_tools: ["*"] }',
      '  - { name: hostile, archive: hostile.tar, allowed_tools: ["*"] }',
      '',
    ].join('\n'),
  );
});

afterAll(async () => {
  await client?.close();
  await rm(dir, { recursive: true, force: true });
});

describe('an archive mounted as a root', () => {
  it('lists, reads, greps and globs a release tarball without unpacking it', async () => {
    const listed = ok(await callTool(client, 'list_folder', { root: 'release', path: '.' }));
    expect(listed.entries.map((entry: { name: string; type: string }) => [entry.name, entry.type])).toEqual([
      ['README.md', 'file'],
      ['src', 'directory'],
    ]);
    expect(ok(await callTool(client, 'read_file', { root: 'release', path: 'src/lib/run.js' })).content).toBe('export function run() {}\n');
    const grep = ok(await callTool(client, 'grep', { root: 'release', pattern: 'TODO' }));
    expect(grep.matches.map((match: { file: string; line_number: number }) => [match.file, match.line_number])).toEqual([['src/app.js', 2]]);
    const glob = ok(await callTool(client, 'glob', { root: 'release', pattern: '**/*.js' }));
    expect(glob.matches.map((match: { path: string }) => match.path).sort()).toEqual(['src/app.js', 'src/lib/run.js']);
  });

  it('answers every write tool with a read-only error naming the root and the path', async () => {
    const attempts: [string, Record<string, unknown>, string][] = [
      ['write_file', { root: 'release', path: 'notes.txt', content: 'x' }, 'notes.txt'],
      ['create_folder', { root: 'release', path: 'new' }, 'new'],
      ['remove_file', { root: 'release', path: 'README.md' }, 'README.md'],
      ['copy', { source_root: 'workspace', source_path: '.', dest_root: 'release', dest_path: 'copied' }, 'copied'],
    ];
    for (const [tool, args, path] of attempts) {
      const outcome = await callTool(client, tool, args);
      expectError(outcome, 'PERMISSION_DENIED', `read-only root (an archive): cannot change ${path} (root: release)`);
      expect(outcome.text).not.toContain(dir);
    }
    expect(ok(await callTool(client, 'read_file', { root: 'release', path: 'README.md' })).content).toBe('# release 1.2\n');
  });

  it('shows the archive roots with their write tools taken out', async () => {
    const roots = ok(await callTool(client, 'list_roots', {}));
    const release = roots.roots.find((root: { name: string }) => root.name === 'release');
    expect(JSON.stringify(release)).not.toContain(dir);
    expect(release.allowed_tools).toContain('read_file');
    expect(release.allowed_tools).not.toContain('write_file');
    expect(roots.roots.find((root: { name: string }) => root.name === 'workspace').allowed_tools).toEqual(['*']);
  });

  it("keeps hostile members inside: '..' and absolute names left out, links and hard links out of the archive refused", async () => {
    const listed = ok(await callTool(client, 'list_folder', { root: 'hostile', path: '.' }));
    expect(listed.entries.map((entry: { name: string }) => entry.name).sort()).toEqual(['ok.txt', 'passwd', 'up']);
    expectError(await callTool(client, 'read_file', { root: 'hostile', path: 'passwd' }), 'ACCESS_DENIED', '(root: hostile)');
    expectError(await callTool(client, 'read_file', { root: 'hostile', path: 'up/planted.txt' }), 'ACCESS_DENIED', '(root: hostile)');
    expectError(await callTool(client, 'read_file', { root: 'hostile', path: 'shadow' }), 'NOT_FOUND', '(root: hostile)');
    const grep = ok(await callTool(client, 'grep', { root: 'hostile', pattern: 'planted|root:' }));
    expect(grep.matches).toEqual([]);
  });
});
