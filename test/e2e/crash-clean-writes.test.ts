import { mkdir, mkdtemp, readdir, readFile, realpath, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { callTool } from '../support/mcp.js';
import { startTestServer, type TestServer } from '../support/server.js';
import { spawnServer, workspaceConfig, type SpawnedServer } from '../support/spawned-server.js';

// Issue 7, "Writes that survive a crash cleanly".
const MB = 1024 * 1024;
const TEMP = /^\.mcp-fs-[0-9a-f]{16}\.(tmp|lock)$/;

let dir: string;
let workspace: string;
let server: SpawnedServer | undefined;
let inProcess: TestServer | undefined;

beforeEach(async () => {
  dir = await realpath(await mkdtemp(join(tmpdir(), 'mcp-fs-e2e-crash-')));
  workspace = join(dir, 'workspace');
  await mkdir(workspace);
});

afterEach(async () => {
  await server?.stop();
  server = undefined;
  await inProcess?.stop();
  inProcess = undefined;
  await rm(dir, { recursive: true, force: true });
});

async function allEntries(host: string, prefix = ''): Promise<string[]> {
  const found: string[] = [];
  for (const entry of await readdir(host, { withFileTypes: true })) {
    found.push(prefix + entry.name);
    if (entry.isDirectory()) found.push(...(await allEntries(join(host, entry.name), `${prefix}${entry.name}/`)));
  }
  return found;
}

describe('crash-clean writes (issue 7)', () => {
  it('12 SIGKILLs during 1 MB write_file calls: after a restart no temp file is left and no file is torn', async () => {
    const config = await workspaceConfig(dir, workspace);
    const contents = ['a', 'b', 'c'].map((fill) => fill.repeat(MB));
    await writeFile(join(workspace, 'big.txt'), contents[0]);
    await mkdir(join(workspace, 'sub'));
    let sawTemp = false;
    for (let round = 0; round < 12; round += 1) {
      server = await spawnServer(config);
      const client = await server.connect();
      const writes = Array.from({ length: 4 }, (_, i) =>
        callTool(client, 'write_file', { root: 'workspace', path: i % 2 ? 'sub/big.txt' : 'big.txt', content: contents[(round + i) % 3] }).catch(
          () => undefined,
        ),
      );
      // Kill it as soon as a temp file of a write in flight shows up (or after a short while).
      for (let tries = 0; tries < 200; tries += 1) {
        const names = [...(await readdir(workspace)), ...(await readdir(join(workspace, 'sub')))];
        if (names.some((name) => TEMP.test(name))) {
          sawTemp = true;
          break;
        }
        await new Promise((resolve) => setTimeout(resolve, 2));
      }
      const exited = new Promise((resolve) => server!.child.once('exit', resolve));
      server.child.kill('SIGKILL');
      await exited;
      // The answers of the killed server's calls never come: close the client, do not wait for them.
      void Promise.all(writes);
      await server.stop();
      server = undefined;
    }
    expect(sawTemp).toBe(true);
    // The restart removes what the killed processes left behind, before it serves anything.
    server = await spawnServer(config);
    const leftovers = (await allEntries(workspace)).filter((name) => TEMP.test(name.split('/').pop()!));
    expect(leftovers).toEqual([]);
    for (const file of ['big.txt', 'sub/big.txt']) {
      const text = await readFile(join(workspace, file), 'utf8').catch(() => contents[0]);
      expect(contents).toContain(text);
    }
  }, 120_000);

  it('while a temp file exists, no listing or search tool shows it', async () => {
    inProcess = await startTestServer();
    const root = inProcess.rootPath('workspace');
    await writeFile(join(root, 'real.txt'), 'needle\n');
    await writeFile(join(root, '.mcp-fs-0123456789abcdef.tmp'), 'needle\n');
    await writeFile(join(root, '.mcp-fs-fedcba9876543210.lock'), 'needle\n');
    const client = await inProcess.connect();
    const outcomes = [
      await callTool(client, 'list_folder', { root: 'workspace', path: '.' }),
      await callTool(client, 'glob', { root: 'workspace', pattern: '**/*' }),
      await callTool(client, 'glob', { root: 'workspace', pattern: '.mcp-fs-*' }),
      await callTool(client, 'grep', { root: 'workspace', pattern: 'needle' }),
      await callTool(client, 'view', { path: '/workspace' }),
      await callTool(client, 'file_list', { path: '/workspace' }),
    ];
    for (const outcome of outcomes) {
      expect(outcome.isError).toBe(false);
      expect(JSON.stringify(outcome.structured ?? outcome.content)).not.toContain('.mcp-fs-');
      expect(outcome.text).not.toContain('.mcp-fs-');
    }
    expect(JSON.stringify(outcomes[0].structured)).toContain('real.txt');
    expect(JSON.stringify(outcomes[3].structured)).toContain('real.txt');
  });
});
