import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { sample } from '../support/metrics.js';
import { nextUpdate, sleep, updatesOf } from '../support/notifications.js';
import { sha256Hex } from '../support/raw-mcp.js';
import { startTestServer, type TestServer } from '../support/server.js';

// Issue 33 §3: folder watches are a budget, per principal and for the server, through the real
// HTTP server and the inotify watcher. Each dN/f.txt costs the root folder and dN: two watches,
// the root shared by every subscription of one principal.
const ALICE = 'alice-watch-token-1f3e';
const BOB = 'bob-watch-token-7c2a';

describe('watch budget (resources/subscribe over HTTP, two principals)', () => {
  let server: TestServer;

  beforeAll(async () => {
    server = await startTestServer({
      auth: {
        mode: 'tokens',
        tokens: [
          { name: 'alice', sha256: sha256Hex(ALICE), readOnly: true },
          { name: 'bob', sha256: sha256Hex(BOB), readOnly: true },
        ],
      },
      subscriptions: { maxPerSession: 3 },
      watches: { server: 6, perPrincipal: 4 },
    });
    for (let n = 0; n < 6; n += 1) {
      await mkdir(join(server.rootPath('workspace'), `d${n}`));
      await writeFile(join(server.rootPath('workspace'), `d${n}`, 'f.txt'), `${n}`);
    }
  });

  afterAll(async () => {
    await server.stop();
  });

  const watchesInUse = async () => sample(await (await fetch(`${server.baseUrl}/metrics`)).text(), 'mcp_fs_watches_in_use');

  it('a principal past its budget gets WATCH_LIMIT_REACHED naming root, path and limit; another principal still subscribes; the budget comes back with the session', async () => {
    const alice = await server.connect({ bearer: ALICE });
    for (const n of [0, 1, 2]) await alice.subscribeResource({ uri: `mcpfs://workspace/d${n}/f.txt` });
    expect(await watchesInUse()).toBe(4);

    const again = await server.connect({ bearer: ALICE });
    await expect(again.subscribeResource({ uri: 'mcpfs://workspace/d3/f.txt' })).rejects.toThrow(
      'MCP error -32602: WATCH_LIMIT_REACHED: cannot watch d3/f.txt (root: workspace): it needs 1 more folder watches and this principal holds 4 of the 4 limits.watches_per_principal allows; unsubscribe from some resources first',
    );
    // Folders alice already holds cost her nothing more.
    await again.subscribeResource({ uri: 'mcpfs://workspace/d1/f.txt' });

    const bob = await server.connect({ bearer: BOB });
    await bob.subscribeResource({ uri: 'mcpfs://workspace/d3/f.txt' });
    expect(await watchesInUse()).toBe(5);
    // Bob is within his own budget, but the server's is full.
    await bob.subscribeResource({ uri: 'mcpfs://workspace/d4/f.txt' });
    await expect(bob.subscribeResource({ uri: 'mcpfs://workspace/d5/f.txt' })).rejects.toThrow(
      /^MCP error -32602: WATCH_LIMIT_REACHED: cannot watch d5\/f\.txt \(root: workspace\): .* the server holds 6 of the 6 limits\.watches allows/,
    );

    await (alice.transport as StreamableHTTPClientTransport).terminateSession();
    await (again.transport as StreamableHTTPClientTransport).terminateSession();
    expect(await watchesInUse()).toBe(3);
    await bob.subscribeResource({ uri: 'mcpfs://workspace/d5/f.txt' });
    await (bob.transport as StreamableHTTPClientTransport).terminateSession();
    expect(await watchesInUse()).toBe(0);
  }, 30_000);

  it('counts every spelling of one URI as one subscription, against the session cap and the budget', async () => {
    const client = await server.connect({ bearer: ALICE });
    const updates = updatesOf(client);
    const spellings = ['d0/f.txt', './d0/f.txt', '%2e/d0/f.txt', 'd1/../d0/f.txt', 'd0/%2E/f.txt', 'd0//f.txt'];
    for (const spelling of spellings) await client.subscribeResource({ uri: `mcpfs://workspace/${spelling}` });
    expect(await watchesInUse()).toBe(2);
    await client.subscribeResource({ uri: 'mcpfs://workspace/d1/f.txt' });
    await client.subscribeResource({ uri: 'mcpfs://workspace/d2/f.txt' });
    await expect(client.subscribeResource({ uri: 'mcpfs://workspace/d3/f.txt' })).rejects.toThrow(/INVALID_ARGUMENT: too many subscriptions: this session holds 3/);

    // One change: one notification, at the latest spelling.
    await sleep(100);
    await writeFile(join(server.rootPath('workspace'), 'd0', 'f.txt'), 'changed');
    await nextUpdate(updates, 0);
    await sleep(600);
    expect(updates.map((update) => update.uri)).toEqual(['mcpfs://workspace/d0//f.txt']);

    // Unsubscribed under another spelling: that entry is silent, and its place is free.
    await client.unsubscribeResource({ uri: 'mcpfs://workspace/%2e/d0/f.txt' });
    await writeFile(join(server.rootPath('workspace'), 'd0', 'f.txt'), 'again');
    await sleep(600);
    expect(updates).toHaveLength(1);
    await client.subscribeResource({ uri: 'mcpfs://workspace/d3/f.txt' });
    await (client.transport as StreamableHTTPClientTransport).terminateSession();
    expect(await watchesInUse()).toBe(0);
  }, 30_000);
});
