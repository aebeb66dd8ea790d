import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { Client as ModernClient } from '@modelcontextprotocol/client';
import { modernHttpClient } from '../../support/modern-calls.js';
import { sample } from '../../support/metrics.js';
import { sha256Hex } from '../../support/raw-mcp.js';
import { startTestServer, type TestServer } from '../../support/server.js';

// Issue 29 §2: subscriptions/listen for modern (2026-07-28) clients over HTTP, with the grants and
// watch budgets of resources/subscribe.
const ALICE = 'alice-listen-token-51c9';
const DOCS = 'docs-listen-token-a07e';

const modernClient = (url: string, bearer: string) => modernHttpClient(url, bearer, 'modern-listen');

/** Every URI a client is told of through notifications/resources/updated, in order. */
function heard(client: ModernClient): string[] {
  const uris: string[] = [];
  client.setNotificationHandler('notifications/resources/updated', (note) => {
    uris.push(note.params.uri);
  });
  return uris;
}

async function until(check: () => boolean, ms = 5000): Promise<void> {
  const end = Date.now() + ms;
  while (!check()) {
    if (Date.now() > end) throw new Error('timed out');
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}

describe('subscriptions/listen over HTTP (MCP 2026-07-28)', () => {
  let server: TestServer;
  const clients: ModernClient[] = [];
  const client = async (bearer = ALICE) => {
    const made = await modernClient(server.url, bearer);
    clients.push(made);
    return made;
  };
  const watchesInUse = async () => sample(await (await fetch(`${server.baseUrl}/metrics`)).text(), 'mcp_fs_watches_in_use');
  /** Closing a stream is heard by the server a moment after the client's close() returns. */
  const untilWatches = async (count: number) => {
    const end = Date.now() + 5000;
    while ((await watchesInUse()) !== count) {
      if (Date.now() > end) throw new Error(`watches in use never came to ${count}`);
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  };

  beforeAll(async () => {
    server = await startTestServer({
      roots: [{ name: 'workspace' }, { name: 'docs' }],
      auth: {
        mode: 'tokens',
        tokens: [
          { name: 'alice', sha256: sha256Hex(ALICE), readOnly: false },
          { name: 'docs-only', sha256: sha256Hex(DOCS), roots: ['docs'], readOnly: false },
        ],
      },
      watches: { server: 64, perPrincipal: 4 },
    });
    for (const n of [0, 1, 2, 3, 4]) {
      await mkdir(join(server.rootPath('workspace'), `d${n}`));
      await writeFile(join(server.rootPath('workspace'), `d${n}`, 'f.txt'), `${n}`);
    }
  });

  afterAll(async () => {
    for (const made of clients) await made.close().catch(() => undefined);
    await server.stop();
  });

  it('hears a write_file through the tool and a change on disk in the filtered folder, not a path outside it', async () => {
    const alice = await client();
    const uris = heard(alice);
    const folder = 'mcpfs://workspace/d0';
    const subscription = await alice.listen({ resourceSubscriptions: [folder] });
    expect(subscription.honoredFilter).toEqual({ resourceSubscriptions: [folder] });

    const written = await alice.callTool({ name: 'write_file', arguments: { root: 'workspace', path: 'd0/new.txt', content: 'via tool\n' } });
    expect(written.isError).not.toBe(true);
    await until(() => uris.length === 1);
    expect(uris).toEqual([folder]);

    await writeFile(join(server.rootPath('workspace'), 'd0', 'added-on-disk.txt'), 'on disk\n');
    await until(() => uris.length === 2);

    await alice.callTool({ name: 'write_file', arguments: { root: 'workspace', path: 'd1/f.txt', content: 'elsewhere\n' } });
    await writeFile(join(server.rootPath('workspace'), 'd2', 'f.txt'), 'elsewhere on disk\n');
    await new Promise((resolve) => setTimeout(resolve, 600));
    expect(uris).toEqual([folder, folder]);
    await subscription.close();
  }, 20_000);

  it('hears a file it listens to', async () => {
    const alice = await client();
    const uris = heard(alice);
    const file = 'mcpfs://workspace/d1/f.txt';
    const subscription = await alice.listen({ resourceSubscriptions: [file] });
    await alice.callTool({ name: 'write_file', arguments: { root: 'workspace', path: 'd1/f.txt', content: 'changed\n' } });
    await until(() => uris.includes(file));
    await subscription.close();
  }, 20_000);

  it("refuses a listener a root outside its principal's grant, naming the root and reason", async () => {
    const docs = await client(DOCS);
    await expect(docs.listen({ resourceSubscriptions: ['mcpfs://workspace/d0'] })).rejects.toThrow(/workspace/);
    const uris = heard(docs);
    const own = await docs.listen({ resourceSubscriptions: ['mcpfs://docs/'] });
    await writeFile(join(server.rootPath('workspace'), 'd0', 'f.txt'), 'not for docs\n');
    await new Promise((resolve) => setTimeout(resolve, 600));
    expect(uris).toEqual([]);
    await own.close();
  }, 20_000);

  it('refuses past the watch budget with WATCH_LIMIT_REACHED, and closing the stream gives the budget back', async () => {
    const alice = await client();
    await untilWatches(0);
    const held = await alice.listen({ resourceSubscriptions: ['mcpfs://workspace/d0/f.txt', 'mcpfs://workspace/d1/f.txt', 'mcpfs://workspace/d2/f.txt'] });
    expect(await watchesInUse()).toBe(4);
    await expect(alice.listen({ resourceSubscriptions: ['mcpfs://workspace/d3/f.txt'] })).rejects.toThrow(
      /WATCH_LIMIT_REACHED: cannot watch d3\/f\.txt \(root: workspace\)/,
    );
    // The refused listen holds nothing.
    expect(await watchesInUse()).toBe(4);
    await held.close();
    await untilWatches(0);
    const again = await alice.listen({ resourceSubscriptions: ['mcpfs://workspace/d3/f.txt'] });
    await again.close();
  }, 20_000);
});
