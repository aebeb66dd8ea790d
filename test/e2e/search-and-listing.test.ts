import { mkdir, mkdtemp, realpath, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { ok, writeTree, type Tree } from '../support/fixtures.js';
import { callTool } from '../support/mcp.js';
import { startTestServer, type TestServer } from '../support/server.js';
import { stdioClient } from '../support/stdio-client.js';

// Issue 19 through the real server and the SDK client, over Streamable HTTP and over stdio (dist/).
interface Transport {
  readonly client: Client;
  seed(tree: Tree): Promise<void>;
  stop(): Promise<void>;
}

async function overHttp(): Promise<Transport> {
  const server: TestServer = await startTestServer();
  return { client: await server.connect(), seed: (tree) => writeTree(server.rootPath('workspace'), tree), stop: () => server.stop() };
}

async function overStdio(): Promise<Transport> {
  const dir = await realpath(await mkdtemp(join(tmpdir(), 'mcp-fs-issue19-')));
  const workspace = join(dir, 'ws');
  await mkdir(workspace);
  const client = await stdioClient(dir, `roots:\n  - { name: workspace, path: ${JSON.stringify(workspace)}, allowed_tools: ["*"] }\n`);
  return {
    client,
    seed: (tree) => writeTree(workspace, tree),
    stop: async () => {
      await client.close();
      await rm(dir, { recursive: true, force: true });
    },
  };
}

describe.each([
  ['HTTP', overHttp],
  ['stdio', overStdio],
])('issue 19 over %s', (_name, connect) => {
  let transport: Transport;
  const call = async (tool: string, args: Record<string, unknown>) => callTool(transport.client, tool, { root: 'workspace', ...args });

  beforeEach(async () => {
    transport = await connect();
  });

  afterEach(async () => {
    await transport?.stop();
  });

  it("grep's text block is ripgrep's: path:line:text, path-line-text for context, -- between groups", async () => {
    const lines = Array.from({ length: 12 }, (_, i) => `line ${i + 1}`);
    lines[1] = 'const "TODO" = 1;';
    lines[9] = 'TODO later';
    await transport.seed({ 'src/a.ts': `${lines.join('\n')}\n`, 'src/b.ts': 'no\nTODO\n' });
    const outcome = await call('grep', { path: 'src', pattern: 'TODO', context_lines: 1 });
    const result = ok(outcome);
    expect(result.total_matches).toBe(3);
    expect(result.matches[0]).toEqual({ file: 'src/a.ts', line_number: 2, line_content: 'const "TODO" = 1;', context_before: ['line 1'], context_after: ['line 3'] });
    expect(outcome.text.split('\n')).toEqual([
      'src/a.ts-1-line 1',
      'src/a.ts:2:const "TODO" = 1;',
      'src/a.ts-3-line 3',
      '--',
      'src/a.ts-9-line 9',
      'src/a.ts:10:TODO later',
      'src/a.ts-11-line 11',
      '--',
      'src/b.ts-1-no',
      'src/b.ts:2:TODO',
    ]);
    const truncated = await call('grep', { path: 'src', pattern: 'TODO', max_results: 1 });
    expect(truncated.text.split('\n')).toEqual(['src/a.ts:2:const "TODO" = 1;', expect.stringMatching(/^\[truncated: 1 matches shown, more exist/)]);
  });

  it('list_folder with depth lists the subtree in order, paths relative to the folder, links not entered, max_entries cut', async () => {
    await transport.seed({ 'proj/src/a.ts': 'a', 'proj/src/lib/b.ts': 'b', 'proj/README.md': 'r', 'proj/z/deep/deeper/x': 'x' });
    const outcome = await call('list_folder', { path: 'proj', depth: 3 });
    const result = ok(outcome);
    expect(result.entries.map((entry: { path: string; type: string }) => `${entry.path}:${entry.type}`)).toEqual([
      'README.md:file',
      'src:directory',
      'src/a.ts:file',
      'src/lib:directory',
      'src/lib/b.ts:file',
      'z:directory',
      'z/deep:directory',
      'z/deep/deeper:directory',
    ]);
    expect(result.entries[2]).toEqual({ name: 'a.ts', path: 'src/a.ts', type: 'file', size: 1, modified_at: expect.any(String) });
    expect(result).not.toHaveProperty('truncated');
    const cut = ok(await call('list_folder', { path: 'proj', depth: 10, max_entries: 2 }));
    expect(cut).toMatchObject({ count: 2, truncated: true, omitted: 7 });
    const flat = ok(await call('list_folder', { path: 'proj' }));
    expect(flat.entries.map((entry: { name: string }) => entry.name)).toEqual(['README.md', 'src', 'z']);
    expect(flat).toEqual({ path: 'proj', entries: flat.entries, count: 3 });
    const refused = await call('list_folder', { path: 'proj', depth: 11 });
    expect(refused.isError).toBe(true);
  });

  it("glob's text block is one path a line (a directory's with a trailing /), not the result's JSON; structuredContent keeps size and modified_at", async () => {
    await transport.seed({ 'src/a.ts': 'x', 'src/lib/b.ts': 'yy', 'src/new\nline.ts': '', 'notes.md': '' });
    const outcome = await call('glob', { pattern: 'src/**' });
    const result = ok(outcome);
    expect(outcome.text.split('\n')).toEqual(['src/', 'src/a.ts', 'src/lib/', 'src/lib/b.ts', '"src/new\\nline.ts"']);
    expect(result.matches[3]).toEqual({ path: 'src/lib/b.ts', type: 'file', size: 2, modified_at: expect.stringMatching(/^\d{4}-\d\d-\d\dT.*Z$/) });
    expect(outcome.text).not.toContain('modified_at');

    const cut = await call('glob', { pattern: '**/*.ts', max_results: 2 });
    expect(ok(cut).truncated).toBe(true);
    expect(cut.text.split('\n')).toEqual(['src/a.ts', 'src/lib/b.ts', '[truncated: 2 entries shown, more match (narrow the pattern or path, or raise max_results)]']);
    expect((await call('glob', { pattern: '*.xyz' })).text).toBe('no matches');
  });

  it('grep, glob, list_folder and file_list skip .git/ and what ignore files ignore, say how many, and search a named path anyway', async () => {
    await transport.seed({
      '.gitignore': 'node_modules/\n*.log\n!keep.log\n/dist\n',
      '.git/config': 'needle',
      'src/.gitignore': 'gen/\n',
      'src/a.ts': 'needle',
      'src/gen/g.ts': 'needle',
      'node_modules/pkg/index.js': 'needle',
      'debug.log': 'needle',
      'keep.log': 'needle',
      'dist/out.js': 'needle',
      'lib/dist/kept.js': 'needle',
    });
    const grep = ok(await call('grep', { pattern: 'needle' }));
    expect(grep.matches.map((match: { file: string }) => match.file)).toEqual(['keep.log', 'lib/dist/kept.js', 'src/a.ts']);
    // .git, debug.log, dist, node_modules, src/gen
    expect(grep.ignored).toBe(5);
    const text = (await call('grep', { pattern: 'needle' })).text.split('\n');
    expect(text.at(-1)).toBe('[ignored: 5 entries skipped by ignore files (ignore: "none" searches them)]');
    const named = ok(await call('grep', { pattern: 'needle', path: 'node_modules/pkg' }));
    expect(named.matches.map((match: { file: string }) => match.file)).toEqual(['node_modules/pkg/index.js']);
    const everything = ok(await call('grep', { pattern: 'needle', ignore: 'none' }));
    expect(everything.total_matches).toBe(8);
    expect(everything).not.toHaveProperty('ignored');

    const glob = ok(await call('glob', { pattern: '**/*.js' }));
    expect(glob.matches.map((match: { path: string }) => match.path)).toEqual(['lib/dist/kept.js']);
    expect(glob.ignored).toBe(5);
    const listing = ok(await call('list_folder', { path: '.', depth: 3 }));
    expect(listing.entries.map((entry: { path: string }) => entry.path)).toEqual(['.gitignore', 'keep.log', 'lib', 'lib/dist', 'lib/dist/kept.js', 'src', 'src/.gitignore', 'src/a.ts']);
    expect(listing.ignored).toBe(5);
    const files = ok(await callTool(transport.client, 'file_list', { path: '/workspace' }));
    expect(files.entries.map((entry: { name: string }) => entry.name)).toEqual(['.gitignore', 'keep.log', 'lib', 'src']);
    expect(files.ignored).toBe(4);
    expect(ok(await callTool(transport.client, 'file_list', { path: '/workspace', ignore: 'none' })).count).toBe(8);
    const refused = await call('glob', { pattern: '**', ignore: 'some' });
    expect(refused.isError).toBe(true);
  });
});

