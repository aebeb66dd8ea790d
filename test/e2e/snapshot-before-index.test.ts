import { startIndexedServer } from '../support/indexed-server.js';
import { callTool } from '../support/mcp.js';
import { ok } from '../support/fixtures.js';
import type { TestServer } from '../support/server.js';

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
  const { client, snapshots, indexes, root, ...started } = await startIndexedServer();
  server = started.server;
  const grep = async () => ok(await callTool(client, 'grep', { root: 'workspace', pattern: 'needle' })) as { matches: { file: string }[] };
  expect((await grep()).matches.map((match) => match.file)).toEqual(['d3/f7.txt']);
  await indexes.settled(root);
  const before = { ...snapshots.answered };
  expect((await grep()).matches.map((match) => match.file)).toEqual(['d3/f7.txt']);
  expect(snapshots.answered).toEqual({ fromSnapshot: before.fromSnapshot + 1, byWalk: before.byWalk });
});
