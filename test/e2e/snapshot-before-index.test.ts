import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { defaultSettings } from '../../src/config/schema.js';
import { SearchIndexes } from '../../src/domain/search/search-indexes.js';
import { TreeSnapshots } from '../../src/domain/search/tree-snapshots.js';
import { startTestServer, type TestServer } from '../support/server.js';
import { callTool } from '../support/mcp.js';
import { ok } from '../support/fixtures.js';
import { makeRoot } from '../support/roots.js';

/**
 * Issue 31.2, as the server is wired: a root's walk snapshot is built before its index, so that the
 * index's first grep replays it. Built after (started by that grep), it walked while the index was
 * held, and every grep walked too until it was done: a 1M-file root took the server to 425 MiB.
 */
let server: TestServer | undefined;

afterEach(async () => {
  await server?.stop();
  server = undefined;
});

it('the index is ready only once the snapshot is: its first grep walks nothing', async () => {
  let snapshots!: TreeSnapshots;
  let indexes!: SearchIndexes;
  const settings = defaultSettings('workspace');
  server = await startTestServer({
    settings: { search: { ...settings.search, index: { mode: 'auto', maxBytes: 1 << 26, minRootBytes: 0 } } },
    configure: (container) => {
      snapshots = container.get(TreeSnapshots);
      indexes = container.get(SearchIndexes);
    },
  });
  const client = await server.connect();
  const path = server.rootPath('workspace');
  // Past the size below which a root keeps no snapshot.
  for (let d = 0; d < 21; d += 1) {
    mkdirSync(join(path, `d${d}`));
    for (let f = 0; f < 100; f += 1) writeFileSync(join(path, `d${d}`, `f${f}.txt`), d === 3 && f === 7 ? 'needle here\n' : 'hay\n');
  }
  const grep = async () => (ok(await callTool(client, 'grep', { root: 'workspace', pattern: 'needle' })) as { matches: { file: string }[] });
  expect((await grep()).matches.map((match) => match.file)).toEqual(['d3/f7.txt']);
  await indexes.settled(makeRoot('workspace', path));
  const before = { ...snapshots.answered };
  expect((await grep()).matches.map((match) => match.file)).toEqual(['d3/f7.txt']);
  expect(snapshots.answered).toEqual({ fromSnapshot: before.fromSnapshot + 1, byWalk: before.byWalk });
});
