import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { startTestServer, type TestServer } from '../support/server.js';
import { callTool } from '../support/mcp.js';
import { expectError, ok, writeTree, type Tree } from '../support/fixtures.js';

// A fresh root per test: several scenarios search the whole root.
let server: TestServer;
let client: Client;

beforeEach(async () => {
  server = await startTestServer();
  client = await server.connect();
});

afterEach(async () => {
  await server?.stop();
});

const seed = (tree: Tree) => writeTree(server.rootPath('workspace'), tree);
const grep = async (args: Record<string, unknown>) => callTool(client, 'grep', { root: 'workspace', ...args });
const glob = async (args: Record<string, unknown>) => callTool(client, 'glob', { root: 'workspace', ...args });
const paths = (result: { matches: { path: string }[] }) => result.matches.map((m) => m.path);

describe('grep', () => {
  it('E2E-048: grep — regex match with context lines', async () => {
    const lines = Array.from({ length: 15 }, (_, i) => `line ${i + 1}`);
    lines[9] = '// TODO: fix this';
    await seed({ 'code.go': `${lines.join('\n')}\n` });

    const result = ok(await grep({ pattern: 'TODO', context_lines: 2 }));
    expect(result.total_matches).toBe(1);
    expect(result.matches).toEqual([
      expect.objectContaining({
        file: 'code.go',
        line_number: 10,
        line_content: '// TODO: fix this',
        context_before: ['line 8', 'line 9'],
        context_after: ['line 11', 'line 12'],
      }),
    ]);
    expect(result).toMatchObject({ truncated: false, timed_out: false });
  });

  it('E2E-049: grep — case insensitive', async () => {
    await seed({ 'a.log': 'an Error occurred\n', 'b.log': 'quiet\nerror: disk\n', 'c.log': 'FATAL ERROR\n', 'd.log': 'all good\n' });

    const result = ok(await grep({ pattern: 'error', case_insensitive: true }));
    expect(result.total_matches).toBe(3);
    const found = result.matches.map((m: { file: string; line_number: number; line_content: string }) => [m.file, m.line_number, m.line_content]);
    expect(found.sort()).toEqual([
      ['a.log', 1, 'an Error occurred'],
      ['b.log', 2, 'error: disk'],
      ['c.log', 1, 'FATAL ERROR'],
    ]);

    const sensitive = ok(await grep({ pattern: 'error' }));
    expect(sensitive.matches.map((m: { file: string }) => m.file)).toEqual(['b.log']);
  });

  it('E2E-050: grep — file type filter', async () => {
    await seed({ 'file.go': '// TODO: go\n', 'file.py': '# TODO: py\n' });

    const result = ok(await grep({ pattern: 'TODO', glob_filter: '*.go' }));
    expect(result.total_matches).toBe(1);
    expect(result.matches.map((m: { file: string }) => m.file)).toEqual(['file.go']);
  });

  it('E2E-051: grep — no matches', async () => {
    await seed({ 'one.txt': 'nothing to see\n', 'dir/two.txt': 'still nothing\n' });

    const result = ok(await grep({ pattern: 'ZZZZUNIQUEZZZZZ' }));
    expect(result).toMatchObject({ total_matches: 0, matches: [], truncated: false, timed_out: false });
  });

  it('E2E-052: grep — invalid regex', async () => {
    await seed({ 'one.txt': '[invalid\n' });
    expectError(await grep({ pattern: '[invalid' }), 'INVALID_ARGUMENT', 'invalid pattern');
  });

  it('E2E-053: grep — max results truncation', async () => {
    const tree: Tree = {};
    for (let i = 0; i < 210; i += 1) tree[`files/f${String(i).padStart(3, '0')}.txt`] = `this line has a match in it\n`;
    await seed(tree);

    const result = ok(await grep({ pattern: 'match', max_results: 5 }));
    expect(result.matches).toHaveLength(5);
    expect(result.truncated).toBe(true);
    for (const match of result.matches) expect(match.line_content).toBe('this line has a match in it');
  });

  it('E2E-054: grep — binary file skipped', async () => {
    await seed({
      'blob.bin': Buffer.concat([Buffer.from('needle\n'), Buffer.from([0, 1, 2, 0]), Buffer.from('\nneedle again\n')]),
      'notes.txt': 'a needle in text\n',
    });

    const result = ok(await grep({ pattern: 'needle' }));
    expect(result.matches.map((m: { file: string }) => m.file)).toEqual(['notes.txt']);
    expect(result.total_matches).toBe(1);
  });
});

describe('glob', () => {
  it('E2E-055: glob — glob pattern match', async () => {
    await seed({ 'a.go': 'a', 'b.go': 'bb', 'c.txt': 'c' });

    const result = ok(await glob({ pattern: '*.go' }));
    expect(paths(result)).toEqual(['a.go', 'b.go']);
    expect(result.total_matches).toBe(2);
    expect(result.matches[1]).toMatchObject({ type: 'file', size: 2 });
  });

  it('E2E-056: glob — regex pattern match', async () => {
    await seed({ 'test_1.go': '', 'test_2.go': '', 'main.go': '' });

    const result = ok(await glob({ regex: 'test_\\d+\\.go' }));
    expect(paths(result)).toEqual(['test_1.go', 'test_2.go']);
  });

  it('E2E-057: glob — doublestar recursive', async () => {
    await seed({ 'src/a.go': '', 'src/pkg/b.go': '', 'src/pkg/sub/c.go': '', 'src/pkg/readme.md': '' });

    const result = ok(await glob({ pattern: '**/*.go' }));
    expect(paths(result)).toEqual(['src/a.go', 'src/pkg/b.go', 'src/pkg/sub/c.go']);
  });

  it('E2E-058: glob — type filter (files only)', async () => {
    await seed({ 'x.txt': 'x', 'y.md': 'y', 'd1/inner.txt': 'i', 'd2/': '' });

    const result = ok(await glob({ pattern: '*', type_filter: 'file' }));
    expect(paths(result)).toEqual(['x.txt', 'y.md']);
    for (const match of result.matches) expect(match.type).toBe('file');

    const everything = ok(await glob({ pattern: '*' }));
    expect(paths(everything)).toEqual(['d1', 'd2', 'x.txt', 'y.md']);
  });

  it('E2E-059: glob — no matches', async () => {
    await seed({ 'a.go': '', 'sub/b.txt': '' });

    const result = ok(await glob({ pattern: '*.xyz' }));
    expect(result).toMatchObject({ total_matches: 0, matches: [], truncated: false });
  });

  it('E2E-060: glob — both pattern and regex rejected', async () => {
    expectError(await glob({ pattern: '*.go', regex: '.*\\.go' }), 'INVALID_ARGUMENT', 'exactly one of pattern or regex must be provided');
  });
});
