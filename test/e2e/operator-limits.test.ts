import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { callTool } from '../support/mcp.js';
import { startTestServer, type TestServer } from '../support/server.js';
import { SteppingClock } from '../domain/tools/search-harness.js';

/**
 * Issue 6, deliverable 4: the operator limits stay honest through the real server. A clock that
 * advances 100 ms on every look makes the deadline pass after a known amount of work, so the
 * timeout is tested without timing anything.
 */
describe('operator limits through the server', () => {
  let server: TestServer;

  beforeAll(async () => {
    server = await startTestServer({
      settings: { search: { defaultTimeoutSeconds: 300, maxTimeoutSeconds: 600, defaultMaxResults: 3, maxResultsLimit: 5 } },
      overrides: { clock: new SteppingClock(100) },
    });
    const tree = join(server.rootPath('workspace'), 'tree');
    await mkdir(tree);
    for (let i = 0; i < 40; i++) await writeFile(join(tree, `f${String(i).padStart(2, '0')}.txt`), `needle ${i}\n`);
    // glob looks at the deadline every 64 entries: its timeout needs a directory of more than ten times that.
    const wide = join(server.rootPath('workspace'), 'wide');
    await mkdir(wide);
    for (let i = 0; i < 1000; i++) await writeFile(join(wide, `g${String(i).padStart(4, '0')}.txt`), '');
  });

  afterAll(async () => {
    await server.stop();
  });

  it('grep and glob asked for more than max_results_limit return the limit and say truncated: true', async () => {
    const client = await server.connect();
    const grep = await callTool(client, 'grep', { root: 'workspace', path: 'tree', pattern: 'needle', max_results: 1000, timeout_seconds: 600 });
    expect(grep.structured).toMatchObject({ total_matches: 5, truncated: true, timed_out: false });
    const glob = await callTool(client, 'glob', { root: 'workspace', path: 'tree', pattern: '*.txt', max_results: 1000, timeout_seconds: 600 });
    expect(glob.structured).toMatchObject({ total_matches: 5, truncated: true, timed_out: false });
  });

  it('timeout_seconds returns the partial results found before the deadline with timed_out: true', async () => {
    const client = await server.connect();
    const grep = await callTool(client, 'grep', { root: 'workspace', path: 'tree', pattern: 'needle 1$', max_results: 5, timeout_seconds: 1 });
    expect(grep.structured).toMatchObject({ timed_out: true, truncated: false });
    expect(grep.structured.files_searched).toBeGreaterThan(0);
    expect(grep.structured.files_searched).toBeLessThan(40);
    // g0000, g0700 and g0900 match: the deadline passes by the tenth look, at the 640th of the 1000 entries.
    const glob = await callTool(client, 'glob', { root: 'workspace', path: 'wide', pattern: 'g0[079]00.txt', max_results: 5, timeout_seconds: 1 });
    expect(glob.structured).toMatchObject({ timed_out: true, truncated: false });
    expect(glob.structured.total_matches).toBeGreaterThan(0);
    expect(glob.structured.total_matches).toBeLessThan(3);
  });

  it('RE2 stays linear: pathological patterns over a 1 MB line finish with an answer', async () => {
    const client = await server.connect();
    await writeFile(join(server.rootPath('workspace'), 'long.txt'), `${'a'.repeat(1024 * 1024)}!\n`);
    for (const pattern of ['(a+)+b', '(a|aa)*b', '(a*)*c', '(.*a){25}x', '((a*)*)*!x']) {
      const outcome = await callTool(client, 'grep', { root: 'workspace', path: 'long.txt', pattern, timeout_seconds: 600 });
      expect({ pattern, ...outcome.structured, matches: undefined }).toMatchObject({ pattern, total_matches: 0, timed_out: false });
    }
  });
});
