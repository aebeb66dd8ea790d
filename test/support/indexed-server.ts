import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { defaultSettings } from '../../src/config/schema.js';
import type { Root } from '../../src/domain/roots.js';
import { SearchIndexes } from '../../src/domain/search/search-indexes.js';
import { TreeSnapshots } from '../../src/domain/search/tree-snapshots.js';
import { makeRoot } from './roots.js';
import { startTestServer, type TestServer } from './server.js';

/** Files the seeded root holds: past the size below which a root keeps no walk snapshot (a walk of it is as fast). */
export const INDEXED_FILES = 2100;

export interface IndexedServer {
  readonly server: TestServer;
  readonly client: Client;
  readonly snapshots: TreeSnapshots;
  readonly indexes: SearchIndexes;
  /** The root `workspace` as the domain sees it (for settled()). */
  readonly root: Root;
}

/**
 * Issue 31.2's real server with the search index on, its root `workspace` seeded with INDEXED_FILES
 * files in 21 folders ('hay', and 'needle here' in d3/f7.txt only), and the container's snapshots and
 * indexes at hand. Nothing is searched yet.
 */
export async function startIndexedServer(): Promise<IndexedServer> {
  const settings = defaultSettings('workspace');
  let snapshots!: TreeSnapshots;
  let indexes!: SearchIndexes;
  const server = await startTestServer({
    settings: { search: { ...settings.search, index: { mode: 'auto', maxBytes: 1 << 26, minRootBytes: 0 } } },
    configure: (container) => {
      snapshots = container.get(TreeSnapshots);
      indexes = container.get(SearchIndexes);
    },
  });
  const client = await server.connect();
  const path = server.rootPath('workspace');
  for (let d = 0; d < 21; d += 1) {
    mkdirSync(join(path, `d${d}`));
    for (let f = 0; f < INDEXED_FILES / 21; f += 1) writeFileSync(join(path, `d${d}`, `f${f}.txt`), d === 3 && f === 7 ? 'needle here\n' : 'hay\n');
  }
  return { server, client, snapshots, indexes, root: makeRoot('workspace', path) };
}
