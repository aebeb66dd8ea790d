import { spawn, type ChildProcess } from 'node:child_process';
import { mkdir, mkdtemp, realpath, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { createInterface } from 'node:readline';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';

// The built server (`npm test` builds dist/ first), run exactly as an operator would.
const MAIN = join(process.cwd(), 'dist', 'main.js');

export interface SpawnedServer {
  readonly child: ChildProcess;
  /** http://127.0.0.1:PORT/mcp */
  readonly url: string;
  connect(): Promise<Client>;
  /** Closes its clients and stops the process (SIGTERM, then SIGKILL if it lingers). */
  stop(): Promise<void>;
}

/** A test's scratch folder (`dir`) with an empty `workspace` in it, and the server it started (`server`, stopped after the test). */
export interface Scratch {
  dir: string;
  workspace: string;
  server?: SpawnedServer;
}

/** Makes a fresh Scratch before each test of the suite, and stops its server and removes it after. */
export function scratchWorkspace(prefix: string): Scratch {
  const scratch: Scratch = { dir: '', workspace: '' };
  beforeEach(async () => {
    scratch.dir = await realpath(await mkdtemp(join(tmpdir(), prefix)));
    scratch.workspace = join(scratch.dir, 'workspace');
    await mkdir(scratch.workspace);
  });
  afterEach(async () => {
    await scratch.server?.stop();
    scratch.server = undefined;
    await rm(scratch.dir, { recursive: true, force: true });
  });
  return scratch;
}

/** Writes a config with one root `workspace` at `workspace` (all tools) into `dir`; returns its path. */
export async function workspaceConfig(dir: string, workspace: string): Promise<string> {
  const file = join(dir, 'config.yaml');
  await writeFile(file, `roots:\n  - name: workspace\n    path: ${JSON.stringify(workspace)}\n    allowed_tools: ["*"]\n`);
  return file;
}

/**
 * Starts `node dist/main.js --config FILE --port 0` on loopback and waits until it listens. The
 * change journal is on, as by default, in `journal-state` next to the config file (so a restart with
 * the same config finds it, and no two tests share one).
 */
export function spawnServer(config: string, env: NodeJS.ProcessEnv = {}): Promise<SpawnedServer> {
  return spawnMain(['--config', config, '--port', '0'], { MCP_FS_JOURNAL_DIR: join(dirname(config), 'journal-state'), ...env });
}

/** Starts `node dist/main.js ARGS` (an HTTP server on loopback) with only PATH and `env`, and waits until it listens. */
export async function spawnMain(args: readonly string[], env: NodeJS.ProcessEnv = {}): Promise<SpawnedServer> {
  const child = spawn(process.execPath, [MAIN, ...args], {
    env: { PATH: process.env.PATH, MCP_FS_LOG_LEVEL: 'info', ...env },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  const url = await new Promise<string>((resolve, reject) => {
    const lines = createInterface({ input: child.stderr! });
    lines.on('line', (line) => {
      if (!line.startsWith('{')) return;
      const record = JSON.parse(line) as { message?: string; url?: string };
      if (record.message === 'mcp-filesystem listening' && record.url) resolve(record.url);
    });
    child.on('exit', (code) => reject(new Error(`server exited with ${code} before listening`)));
  });
  const clients: Client[] = [];
  return {
    child,
    url,
    async connect() {
      const client = new Client({ name: 'mcp-filesystem-tests', version: '1.0.0' });
      await client.connect(new StreamableHTTPClientTransport(new URL(url)));
      clients.push(client);
      return client;
    },
    async stop() {
      await Promise.all(clients.splice(0).map((client) => client.close().catch(() => undefined)));
      if (child.exitCode !== null || child.signalCode !== null) return;
      const exited = new Promise((resolve) => child.once('exit', resolve));
      child.kill('SIGTERM');
      const timer = setTimeout(() => child.kill('SIGKILL'), 5000);
      await exited;
      clearTimeout(timer);
    },
  };
}
