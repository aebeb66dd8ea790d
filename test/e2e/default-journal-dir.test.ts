import { spawn, type ChildProcess } from 'node:child_process';
import { mkdir, mkdtemp, readdir, readFile, realpath, rm, symlink } from 'node:fs/promises';
import { tmpdir, userInfo } from 'node:os';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { callTool } from '../support/mcp.js';
import { spawnMain, type SpawnedServer } from '../support/spawned-server.js';

// `mcp-filesystem DIR` with no journal setting: the journal is on, by default in the user's state
// directory, or in the temp dir when that one is inside a root (issue 20). The child's temp dir and
// home are this test's own directories, so serving "the temp dir" or "$HOME" is hermetic.
const MAIN = join(process.cwd(), 'dist', 'main.js');

let dir: string;
let temp: string;
let home: string;
let env: Record<string, string>;
const clients: Client[] = [];
const children: ChildProcess[] = [];
const servers: SpawnedServer[] = [];

beforeEach(async () => {
  dir = await realpath(await mkdtemp(join(tmpdir(), 'mcp-fs-e2e-journal-dir-')));
  [temp, home] = [join(dir, 'tmp'), join(dir, 'home')];
  await mkdir(temp);
  await mkdir(home);
  env = { PATH: process.env.PATH ?? '', MCP_FS_LOG_LEVEL: 'error', TMPDIR: temp, HOME: home };
});

afterEach(async () => {
  await Promise.all(clients.splice(0).map((client) => client.close()));
  await Promise.all(servers.splice(0).map((server) => server.stop()));
  for (const child of children.splice(0)) if (child.exitCode === null) child.kill('SIGKILL');
  await rm(dir, { recursive: true, force: true });
});

/** Writes a file through the server, lists it with list_changes, undoes it: the journal works. */
async function writeListUndo(client: Client, root: string, served: string): Promise<void> {
  expect((await callTool(client, 'write_file', { root, path: 'note.txt', content: 'hello\n' })).isError).toBe(false);
  const listed = await callTool(client, 'list_changes', {});
  expect(listed.isError).toBe(false);
  expect(listed.structured.changes).toEqual([expect.objectContaining({ tool: 'write_file', op: 'create', root, path: 'note.txt', undoable: true })]);
  const undone = await callTool(client, 'undo_changes', { ids: [listed.structured.changes[0].id] });
  expect(undone.structured.results).toEqual([expect.objectContaining({ outcome: 'restored' })]);
  // Security: nothing of the journal (or a write's temp file) is left in the served root.
  expect(await readdir(served)).toEqual([]);
}

/** The records the journal in `journalDir` holds: one per change, never anywhere in the root. */
/** The ids of the records kept there: a record is its begin file (<id>.img) and, once rewritten, <id>.json. */
/** The changes recorded in a journal directory, once their files are written (just after each call; a second at most here). */
async function recordsIn(journalDir: string, expected: number): Promise<string[]> {
  for (let waited = 0; ; waited += 20) {
    const ids = [...new Set((await readdir(join(journalDir, 'records'))).filter((name) => /\.(img|json)$/.test(name)).map((name) => name.replace(/\.(img|json)$/, '')))];
    if (ids.length >= expected || waited >= 1000) return ids;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

describe('the default journal directory (child process)', () => {
  it('`mcp-filesystem <the temp dir>` over stdio starts with the journal on, in ~/.local/state/mcp-filesystem/journal', async () => {
    const transport = new StdioClientTransport({ command: process.execPath, args: [MAIN, temp], env, stderr: 'ignore' });
    const client = new Client({ name: 'journal-dir-test', version: '1' });
    await client.connect(transport);
    clients.push(client);
    await writeListUndo(client, 'tmp', temp);
    // The write and its undo: two records, in the user's state directory.
    expect(await recordsIn(join(home, '.local', 'state', 'mcp-filesystem', 'journal'), 2)).toHaveLength(2);
  });

  it('`mcp-filesystem --http $HOME` starts with the journal on, in <temp>/mcp-fs-inflight-<uid>/journal', async () => {
    const server = await spawnMain(['--http', '--host', '127.0.0.1', '--port', '0', home], { ...env, MCP_FS_LOG_LEVEL: 'info' });
    servers.push(server);
    const client = await server.connect();
    await writeListUndo(client, 'home', home);
    expect(await recordsIn(join(temp, `mcp-fs-inflight-${userInfo().uid}`, 'journal'), 2)).toHaveLength(2);
  });

  it('`mcp-filesystem /` refuses to start in one line saying how to fix it; with the journal off it starts', async () => {
    const refused = await run(['/'], env);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toMatch(/^config error: journal\.dir: the default journal directory would be inside a root \(tried .*\); set journal\.dir \(MCP_FS_JOURNAL_DIR\) to a directory outside every root, or journal\.enabled: false \(MCP_FS_JOURNAL_ENABLED=false\)\n$/);

    const transport = new StdioClientTransport({ command: process.execPath, args: [MAIN, '/'], env: { ...env, MCP_FS_JOURNAL_ENABLED: 'false' }, stderr: 'ignore' });
    const client = new Client({ name: 'journal-dir-test', version: '1' });
    await client.connect(transport);
    clients.push(client);
    const roots = await callTool(client, 'list_roots', {});
    expect(roots.isError).toBe(false);
  });

  it('an explicit MCP_FS_JOURNAL_DIR inside the root is refused, naming the setting, never moved', async () => {
    const refused = await run([temp], { ...env, MCP_FS_JOURNAL_DIR: join(temp, 'journal') });
    expect(refused.code).toBe(1);
    expect(refused.stderr).toBe(`config error: journal.dir: ${join(temp, 'journal')} is inside root "tmp"; put the journal outside every root\n`);
    await expect(readFile(join(home, '.local', 'state', 'mcp-filesystem', 'journal', 'records'))).rejects.toThrow();
  });

  it('a state directory or a journal.dir that is a link is refused in one line, naming the variable or setting, with nothing made in its target', async () => {
    const target = join(dir, 'private');
    await mkdir(target, { mode: 0o700 });
    const xdg = join(dir, 'xdg');
    await mkdir(xdg);
    await symlink(target, join(xdg, 'mcp-filesystem'));
    const refused = await run([temp], { ...env, XDG_STATE_HOME: xdg });
    expect(refused.code).toBe(1);
    expect(refused.stderr).toBe(
      `config error: XDG_STATE_HOME: the state directory ${join(xdg, 'mcp-filesystem')} is a symbolic link; it must be a real directory: replace the link with a directory, or set XDG_STATE_HOME elsewhere\n`,
    );
    expect(await readdir(target)).toEqual([]);

    const link = join(dir, 'journal-link');
    await symlink(target, link);
    const explicit = await run([temp], { ...env, MCP_FS_JOURNAL_DIR: link });
    expect(explicit.code).toBe(1);
    expect(explicit.stderr).toBe(`config error: journal.dir: the journal directory ${link} is a symbolic link; it must be a real directory: replace the link with a directory, or set journal.dir elsewhere\n`);
    expect(await readdir(target)).toEqual([]);
  });
});

function run(args: string[], childEnv: NodeJS.ProcessEnv): Promise<{ code: number | null; stderr: string }> {
  const child = spawn(process.execPath, [MAIN, ...args], { env: childEnv, stdio: ['ignore', 'ignore', 'pipe'] });
  children.push(child);
  let stderr = '';
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  return new Promise((resolve) => child.on('close', (code) => resolve({ code, stderr })));
}
