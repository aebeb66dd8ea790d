import { mkdir, mkdtemp, realpath, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';

const MAIN = join(process.cwd(), 'dist', 'main.js');

// Issue 33 §3: the operating system's own limit on watches. The built server runs in a user
// namespace of its own (unshare -U -r) whose inotify limit is set low, so it runs out of watches
// at once without touching the limit of anything else on the machine.
describe('the OS watch limit (the built server over stdio, in a user namespace with a low inotify limit)', () => {
  let dir: string;
  let client: Client | undefined;

  beforeAll(async () => {
    dir = await realpath(await mkdtemp(join(tmpdir(), 'watch-os-limit-')));
    for (let n = 0; n < 3; n += 1) {
      await mkdir(join(dir, 'workspace', `d${n}`), { recursive: true });
      await writeFile(join(dir, 'workspace', `d${n}`, 'f.txt'), `${n}`);
    }
  });

  afterEach(async () => {
    await client?.close();
    client = undefined;
  });

  afterAll(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  async function serverWithInotifyLimit(limit: number, env: Record<string, string> = {}): Promise<Client> {
    const script = `echo ${limit} > /proc/sys/user/max_inotify_watches && exec "$0" "$@"`;
    const transport = new StdioClientTransport({
      command: 'unshare',
      args: ['-U', '-r', 'sh', '-c', script, process.execPath, MAIN, join(dir, 'workspace')],
      env: { PATH: process.env.PATH ?? '', MCP_FS_LOG_LEVEL: 'error', ...env },
      stderr: 'pipe',
    });
    client = new Client({ name: 'watch-os-limit-test', version: '1' });
    await client.connect(transport);
    return client;
  }

  it('ENOSPC past a budget set above the OS limit is WATCH_LIMIT_REACHED naming the OS limit, never INTERNAL_ERROR', async () => {
    const server = await serverWithInotifyLimit(3, { MCP_FS_LIMITS_WATCHES: '100' });
    // The root folder, d0 and d1: three inotify watches.
    await server.subscribeResource({ uri: 'mcpfs://workspace/d0/f.txt' });
    await server.subscribeResource({ uri: 'mcpfs://workspace/d1/f.txt' });
    await expect(server.subscribeResource({ uri: 'mcpfs://workspace/d2/f.txt' })).rejects.toThrow(
      "MCP error -32602: WATCH_LIMIT_REACHED: cannot watch d2/f.txt (root: workspace): the operating system's limit on watches (fs.inotify.max_user_watches) is reached; unsubscribe from some resources first",
    );
    // What was refused gave its place back: after one unsubscribe there is room again.
    await server.unsubscribeResource({ uri: 'mcpfs://workspace/d1/f.txt' });
    await server.subscribeResource({ uri: 'mcpfs://workspace/d2/f.txt' });
  }, 30_000);

  it('by default the budget is half the limit read at start-up (here the namespace\'s 8: 4 for the server, 2 a principal)', async () => {
    const server = await serverWithInotifyLimit(8);
    await server.subscribeResource({ uri: 'mcpfs://workspace/d0/f.txt' });
    await expect(server.subscribeResource({ uri: 'mcpfs://workspace/d1/f.txt' })).rejects.toThrow(
      'MCP error -32602: WATCH_LIMIT_REACHED: cannot watch d1/f.txt (root: workspace): it needs 1 more folder watches and this principal holds 2 of the 2 limits.watches_per_principal allows; unsubscribe from some resources first',
    );
  }, 30_000);
});
