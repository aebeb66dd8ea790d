import { lstat, mkdir, mkdtemp, readdir, realpath, rename, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { callTool } from '../support/mcp.js';

// Issue 31.2: the search index is kept in the private state directory ($XDG_STATE_HOME here) and a
// restarted server's first grep starts from it, while still finding what changed while it was down.
const MAIN = join(process.cwd(), 'dist', 'main.js');

let dir: string;
let workspace: string;
let config: string;
const clients: Client[] = [];

beforeEach(async () => {
  dir = await realpath(await mkdtemp(join(tmpdir(), 'mcp-fs-e2e-index-store-')));
  workspace = join(dir, 'workspace');
  await mkdir(join(workspace, 'src'), { recursive: true });
  await mkdir(join(dir, 'home'));
  for (let n = 0; n < 40; n += 1) await writeFile(join(workspace, 'src', `file${n}.ts`), `export const value${n} = ${n};\n${n === 7 ? 'const needle = 7;\n' : ''}`);
  config = join(dir, 'config.yaml');
  await writeFile(
    config,
    ['log_level: info', 'journal: { enabled: false }', 'search:', '  index: { mode: auto, min_root_bytes: 0 }', 'roots:', '  - name: workspace', `    path: ${JSON.stringify(workspace)}`, '    allowed_tools: ["*"]', ''].join('\n'),
  );
});

afterEach(async () => {
  await Promise.all(clients.splice(0).map((client) => client.close()));
  await rm(dir, { recursive: true, force: true });
});

/** A stdio server of the workspace, its log (stderr) gathered in `log`. */
async function start(): Promise<{ client: Client; log: () => string }> {
  const env = { PATH: process.env.PATH ?? '', HOME: join(dir, 'home'), XDG_STATE_HOME: join(dir, 'state'), TMPDIR: dir };
  const transport = new StdioClientTransport({ command: process.execPath, args: [MAIN, '--config', config, '--stdio'], env, stderr: 'pipe' });
  let log = '';
  transport.stderr?.on('data', (chunk: Buffer) => (log += chunk.toString()));
  const client = new Client({ name: 'index-store-test', version: '1' });
  await client.connect(transport);
  clients.push(client);
  return { client, log: () => log };
}

async function grepFiles(client: Client): Promise<string[]> {
  const result = await callTool(client, 'grep', { root: 'workspace', pattern: 'needle' });
  expect(result.isError).toBe(false);
  return (result.structured.matches as { file: string }[]).map((match) => match.file).sort();
}

async function until(what: () => Promise<boolean>, label: string): Promise<void> {
  for (let waited = 0; !(await what()); waited += 100) {
    if (waited > 20_000) throw new Error(`timed out waiting for ${label}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

describe('the search index kept in the state directory (child processes)', () => {
  it("a restarted server loads the stored index beside its first grep (never before it) and finds the files changed while it was down", async () => {
    const indexDir = join(dir, 'state', 'mcp-filesystem', 'index');
    const first = await start();
    expect(await grepFiles(first.client)).toEqual(['src/file7.ts']);
    // The build runs after the first grep, and its save a little after it ends.
    await until(async () => (await readdir(indexDir).catch(() => [])).some((name) => name.endsWith('.idx')), 'the stored index');
    const [stored] = (await readdir(indexDir)).filter((name) => name.endsWith('.idx'));
    expect((await lstat(indexDir)).mode & 0o777).toBe(0o700);
    expect((await lstat(join(indexDir, stored!))).mode & 0o777).toBe(0o600);
    // Security: nothing of it is in the served root.
    expect((await readdir(workspace)).sort()).toEqual(['src']);
    await clients.pop()!.close();

    // While no server runs: one file gains the word, the one that had it loses it, one is created.
    await writeFile(join(workspace, 'src', 'file3.ts'), 'export const value3 = 3; // a needle too\n');
    await writeFile(join(workspace, 'src', 'file7.ts'), 'export const value7 = 7;\n');
    await writeFile(join(workspace, 'src', 'late.ts'), 'const needle = "late";\n');

    const second = await start();
    expect(second.log()).not.toMatch(/search index of root "workspace" loaded/);
    // Its first grep scans (it never waits for the load); the load ends beside it, and the next grep uses it.
    expect(await grepFiles(second.client)).toEqual(['src/file3.ts', 'src/late.ts']);
    await until(async () => /search index of root \\?"workspace\\?" loaded from the state directory/.test(second.log()), 'the load');
    expect(await grepFiles(second.client)).toEqual(['src/file3.ts', 'src/late.ts']);
    expect(second.log()).not.toMatch(/ignored|could not/);
  });

  it('an index stored for another folder under the same root name is ignored and replaced', async () => {
    // The root's folder replaced by another one holding other files: moved away (the root re-pointed),
    // then removed and made again (its inode number may be handed out again: the birth time differs).
    const replacements = [() => rename(workspace, join(dir, 'moved')), () => rm(workspace, { recursive: true })];
    for (const [round, replace] of replacements.entries()) {
      const first = await start();
      await grepFiles(first.client);
      // Stored by this server, or by the last round's second one and loaded here.
      await until(async () => /search index of root \\?"workspace\\?" (stored|loaded)/.test(first.log()), 'the stored index');
      await clients.pop()!.close();
      await replace();
      await mkdir(join(workspace, 'lib'), { recursive: true });
      await writeFile(join(workspace, 'lib', 'other.ts'), `const needle = ${round};\n`);
      const second = await start();
      expect(await grepFiles(second.client)).toEqual(['lib/other.ts']);
      await until(async () => /stored search index of root \\?"workspace\\?" ignored \(built from another tree\)/.test(second.log()), 'the refusal');
      expect(await grepFiles(second.client)).toEqual(['lib/other.ts']);
      expect(second.log()).not.toMatch(/loaded from the state directory/);
      await clients.pop()!.close();
    }
  });
});
