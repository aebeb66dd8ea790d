import { mkdir, rename, symlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { callTool } from '../support/mcp.js';
import { nextUpdate, sleep, updatesOf, type ResourceUpdate } from '../support/notifications.js';
import { sha256Hex } from '../support/raw-mcp.js';
import { startTestServer, type TestServer } from '../support/server.js';

// Issue 33 §5: a read-only principal subscribed to r1/... must hear nothing of its entry once another
// principal moves it into r2, a root the subscriber cannot use: it is told once that its path
// changed (reading it now answers NOT_FOUND), then silence, whatever happens to the entry in r2.
const READER = 'reader-token-after-move-1';
const WRITER = 'writer-token-after-move-2';

describe("a subscription whose entry leaves the subscriber's reach (two principals over HTTP)", () => {
  let server: TestServer;
  let reader: Client;
  let writer: Client;
  let updates: ResourceUpdate[];
  const r1 = (...names: string[]) => join(server.rootPath('r1'), ...names);
  const r2 = (...names: string[]) => join(server.rootPath('r2'), ...names);

  beforeAll(async () => {
    server = await startTestServer({
      roots: [{ name: 'r1' }, { name: 'r2' }],
      auth: {
        mode: 'tokens',
        tokens: [
          { name: 'reader', sha256: sha256Hex(READER), roots: ['r1'], readOnly: true },
          { name: 'writer', sha256: sha256Hex(WRITER), readOnly: false },
        ],
      },
    });
    reader = await server.connect({ bearer: READER });
    writer = await server.connect({ bearer: WRITER });
    updates = updatesOf(reader);
  });
  afterAll(async () => {
    await server.stop();
  });

  /** The writer changes the moved file in r2, through the server and on disk, three times each. */
  async function changeInR2(path: string): Promise<void> {
    for (let i = 0; i < 3; i += 1) {
      expect((await callTool(writer, 'write_file', { root: 'r2', path, content: `secret ${i}` })).isError).toBe(false);
      await writeFile(r2(...path.split('/')), `disk ${i}`);
      await sleep(300);
    }
    await sleep(400);
  }

  it('the folder moved by name (move tool): told once at the move, then silence', async () => {
    await mkdir(r1('p'));
    await writeFile(r1('p', 'f.txt'), 'v1');
    await reader.subscribeResource({ uri: 'mcpfs://r1/p/f.txt' });
    const before = updates.length;
    expect((await callTool(writer, 'move', { source_root: 'r1', source_path: 'p', dest_root: 'r2', dest_path: 'p' })).isError).toBe(false);
    expect(await nextUpdate(updates, before)).toBe('mcpfs://r1/p/f.txt');
    await sleep(400);
    const told = updates.length;
    await changeInR2('p/f.txt');
    expect(updates.length).toBe(told);
    expect((await callTool(reader, 'read_file', { root: 'r1', path: 'p/f.txt' })).text).toMatch(/^NOT_FOUND: /);
  });

  it('the folder reached through an in-root link moved away (no name on the path changes): told once, then silence', async () => {
    await mkdir(r1('real', 'q'), { recursive: true });
    await writeFile(r1('real', 'q', 'f.txt'), 'v1');
    await symlink('real/q', r1('q'));
    await reader.subscribeResource({ uri: 'mcpfs://r1/q/f.txt' });
    await sleep(400);
    const before = updates.length;
    expect((await callTool(writer, 'move', { source_root: 'r1', source_path: 'real', dest_root: 'r2', dest_path: 'real' })).isError).toBe(false);
    await changeInR2('real/q/f.txt');
    // One update at most: the first event heard after the move finds the path no longer leads to the watched folder.
    expect(updates.length - before).toBeLessThanOrEqual(1);
    const told = updates.length;
    await changeInR2('real/q/f.txt');
    expect(updates.length).toBe(told);
    expect((await callTool(reader, 'read_file', { root: 'r1', path: 'q/f.txt' })).text).toMatch(/^NOT_FOUND: /);

    // Moved back on disk, the link leads to it again: its changes are the subscriber's to hear again once the link is made anew.
    await rename(r2('real'), r1('real'));
    await symlink('real/q', r1('q2'));
    await rename(r1('q2'), r1('q'));
    await sleep(400);
    const back = updates.length;
    await writeFile(r1('real', 'q', 'f.txt'), 'v2 in reach');
    expect(await nextUpdate(updates, back)).toBe('mcpfs://r1/q/f.txt');
  });
});
