import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { startTestServer, type TestServer, type TestServerOptions } from './server.js';

export interface LiveServer {
  readonly server: TestServer;
  /** A client connected when the server started. */
  readonly client: Client;
  /** The host directory of the first root ('workspace' by default), for seeding fixtures with node:fs. */
  readonly root: string;
}

/**
 * Starts a server before the tests of the enclosing file or describe block and stops it after
 * them. The fields are filled in by that beforeAll: read them in hooks and tests, not at load time.
 */
export function useTestServer(options: TestServerOptions = {}): LiveServer {
  const live = {} as { server: TestServer; client: Client; root: string };
  beforeAll(async () => {
    live.server = await startTestServer(options);
    live.client = await live.server.connect();
    live.root = live.server.rootPath(live.server.config.roots[0].name);
  });
  afterAll(async () => {
    await live.server?.stop();
  });
  return live;
}
