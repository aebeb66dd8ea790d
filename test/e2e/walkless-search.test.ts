import { mkdtempSync, renameSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { TreeSnapshots } from '../../src/domain/search/tree-snapshots.js';
import { INDEXED_FILES as FILES, startIndexedServer } from '../support/indexed-server.js';
import type { TestServer } from '../support/server.js';
import { callTool } from '../support/mcp.js';
import { ok } from '../support/fixtures.js';

/**
 * Issue 31.2 through the real server: once the root's walk snapshot is built, grep and glob answer
 * without walking, and stay exact for changes made outside the server a moment before the call.
 */
let server: TestServer;
let client: Client;
let snapshots: TreeSnapshots;
let outside: string;

beforeEach(async () => {
  const started = await startIndexedServer();
  ({ server, client, snapshots } = started);
  outside = mkdtempSync(join(tmpdir(), 'walkless-outside-'));
  writeFileSync(join(outside, 'secret.txt'), 'needle outside\n');
  // The first grep starts the index and the snapshot; both are built before the calls below.
  ok(await grep('needle'));
  await started.indexes.settled(started.root);
  await snapshots.settled(started.root);
});

afterEach(async () => {
  await server?.stop();
  rmSync(outside, { recursive: true, force: true });
});

const grep = async (pattern: string) => callTool(client, 'grep', { root: 'workspace', pattern, max_results: 1000 });
const glob = async (pattern: string) => callTool(client, 'glob', { root: 'workspace', pattern, max_results: 10000 });
const files = (result: { matches: { file: string }[] }) => result.matches.map((match) => match.file);
const globbed = (result: { matches: { path: string }[] }) => result.matches.map((match) => match.path);

describe('grep and glob without the walk', () => {
  it('a file created outside the server just before the call is found', async () => {
    const answered = snapshots.answered.fromSnapshot;
    writeFileSync(join(server.rootPath('workspace'), 'd5', 'fresh.txt'), 'needle fresh\n');
    expect(files(ok(await grep('needle')))).toEqual(['d3/f7.txt', 'd5/fresh.txt']);
    writeFileSync(join(server.rootPath('workspace'), 'd6', 'new.md'), '');
    expect(globbed(ok(await glob('**/*.md')))).toEqual(['d6/new.md']);
    expect(snapshots.answered.fromSnapshot).toBe(answered + 2);
  });

  it('a file deleted or renamed away outside the server is never reported', async () => {
    rmSync(join(server.rootPath('workspace'), 'd3', 'f7.txt'));
    const result = ok(await grep('needle'));
    expect(result.matches).toEqual([]);
    expect(result.files_searched).toBe(FILES - 1);
    renameSync(join(server.rootPath('workspace'), 'd4'), join(outside, 'd4'));
    const listed = globbed(ok(await glob('**/*.txt')));
    expect(listed).toHaveLength(FILES - 1 - FILES / 21);
    expect(listed.some((path) => path.startsWith('d4/'))).toBe(false);
  });

  it('a directory swapped for a link to outside the root is never followed', async () => {
    const root = server.rootPath('workspace');
    rmSync(join(root, 'd3'), { recursive: true });
    symlinkSync(outside, join(root, 'd3'));
    const result = ok(await grep('needle'));
    expect(result.matches).toEqual([]);
    expect(JSON.stringify(result)).not.toContain('outside');
    const listed = ok(await callTool(client, 'glob', { root: 'workspace', pattern: 'd3/**', max_results: 100 }));
    expect(globbed(listed)).toEqual(['d3']);
    expect(listed.matches[0].type).toBe('symlink');
  });
});
