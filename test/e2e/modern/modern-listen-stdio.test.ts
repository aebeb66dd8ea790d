import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Client as ModernClient } from '@modelcontextprotocol/client';
import { modernStdioClient } from '../../support/stdio-client.js';

// Issue 29 §2: subscriptions/listen for a modern client over stdio (the operator's connection),
// with the same watch budget as resources/subscribe.
describe('subscriptions/listen over stdio (MCP 2026-07-28)', () => {
  let dir: string;
  let workspace: string;
  let client: ModernClient;
  const uris: string[] = [];

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'mcpfs-modern-listen-'));
    workspace = join(dir, 'workspace');
    for (const n of [0, 1, 2]) {
      await mkdir(join(workspace, `d${n}`), { recursive: true });
      await writeFile(join(workspace, `d${n}`, 'f.txt'), `${n}`);
    }
    const config = [
      'log_level: error',
      'roots:',
      '  - name: workspace',
      `    path: ${JSON.stringify(workspace)}`,
      '    allowed_tools: ["*"]',
      `journal: { dir: ${JSON.stringify(join(dir, 'journal'))} }`,
      'limits: { watches_per_principal: 2 }',
      '',
    ].join('\n');
    client = await modernStdioClient(dir, config);
    client.setNotificationHandler('notifications/resources/updated', (note) => {
      uris.push(note.params.uri);
    });
  });
  afterAll(async () => {
    await client?.close();
    await rm(dir, { recursive: true, force: true });
  });

  async function until(check: () => boolean): Promise<void> {
    const end = Date.now() + 5000;
    while (!check()) {
      if (Date.now() > end) throw new Error('timed out');
      await new Promise((resolve) => setTimeout(resolve, 25));
    }
  }

  it('hears a write_file through the tool and a change on disk in the filtered folder, not a path outside it', async () => {
    const folder = 'mcpfs://workspace/d0';
    const subscription = await client.listen({ resourceSubscriptions: [folder] });
    expect(subscription.honoredFilter).toEqual({ resourceSubscriptions: [folder] });
    await client.callTool({ name: 'write_file', arguments: { root: 'workspace', path: 'd0/new.txt', content: 'via tool\n' } });
    await until(() => uris.length === 1);
    await writeFile(join(workspace, 'd0', 'added-on-disk.txt'), 'on disk\n');
    await until(() => uris.length === 2);
    await writeFile(join(workspace, 'd1', 'f.txt'), 'outside\n');
    await new Promise((resolve) => setTimeout(resolve, 600));
    expect(uris).toEqual([folder, folder]);
    await subscription.close();
  }, 20_000);

  it('refuses past the watch budget with WATCH_LIMIT_REACHED; closing the stream gives the budget back', async () => {
    const held = await client.listen({ resourceSubscriptions: ['mcpfs://workspace/d1/f.txt'] });
    await expect(client.listen({ resourceSubscriptions: ['mcpfs://workspace/d2/f.txt'] })).rejects.toThrow(/WATCH_LIMIT_REACHED: cannot watch d2\/f\.txt \(root: workspace\)/);
    await held.close();
    // The cancellation travels as a notification: the budget comes back once the server has read it.
    let again: Awaited<ReturnType<ModernClient['listen']>> | undefined;
    const end = Date.now() + 5000;
    while (!again) {
      again = await client.listen({ resourceSubscriptions: ['mcpfs://workspace/d2/f.txt'] }).catch((error: unknown) => {
        if (Date.now() > end) throw error;
        return undefined;
      });
    }
    await again.close();
  }, 20_000);
});
