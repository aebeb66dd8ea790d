// Starting the servers under test and connecting SDK clients to them. Loopback only.
import { spawn } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { Client as ModernClient, StreamableHTTPClientTransport as ModernHttpTransport } from '@modelcontextprotocol/client';

const projectDir = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
export const OUR_MAIN = join(projectDir, 'dist', 'main.js');
export const REFERENCE_MAIN = join(projectDir, 'node_modules', '@modelcontextprotocol', 'server-filesystem', 'dist', 'index.js');
export const FLOOR_MAIN = join(projectDir, 'scripts', 'bench', 'floor-server.mjs');
export const FLOOR_V1_MAIN = join(projectDir, 'scripts', 'bench', 'floor-server-v1.mjs');

export function writeConfig(dir, corpus) {
  const file = join(dir, 'bench.yaml');
  writeFileSync(
    file,
    [
      'host: 127.0.0.1',
      'port: 0',
      'log_level: error',
      'max_full_read_size: 10485760',
      'default_root: bench',
      'search:',
      '  timeout_seconds: 600',
      '  max_timeout_seconds: 600',
      '  max_results: 100',
      '  max_results_limit: 100000',
      // The scan rows measure the scan: grepIndexed runs a server of its own with the index on.
      '  index: { mode: off }',
      'roots:',
      '  - name: bench',
      `    path: ${JSON.stringify(corpus)}`,
      '    allowed_tools: ["*"]',
      '',
    ].join('\n'),
  );
  return file;
}

export function freePort() {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address();
      server.close(() => resolve(port));
    });
  });
}

function newClient() {
  return new Client({ name: 'mcpfs-bench', version: '1.0.0' });
}

/**
 * An SDK client over stdio to a spawned server; `pid` is the server's. close() resolves once the server
 * has exited: what a server does as it ends (ours writes its code cache) must not run beside the next
 * start a row times.
 */
export async function stdioClient(args, env = undefined) {
  const transport = new StdioClientTransport({ command: process.execPath, args, stderr: 'ignore', ...(env ? { env: { ...process.env, ...env } } : {}) });
  const client = newClient();
  await client.connect(transport);
  const pid = transport.pid;
  return {
    client,
    pid,
    close: async () => {
      await client.close();
      await exited(pid);
    },
  };
}

/** Resolves once the process is gone (reaped: Node reaps its children between turns), or after 5 s. */
async function exited(pid) {
  for (let waited = 0; waited < 5000; waited += 5) {
    try {
      process.kill(pid, 0);
    } catch {
      return;
    }
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
}

/** Ours over stdio; `env` sets the change journal (MCP_FS_JOURNAL_DIR, or MCP_FS_JOURNAL_ENABLED=false). */
export const ourStdio = (config, env) => stdioClient([OUR_MAIN, '--stdio', '--config', config], env);
export const referenceStdio = (corpus) => stdioClient([REFERENCE_MAIN, corpus]);

/** A spawned HTTP server (ours or the floor), answering on /mcp once /health says so. */
export async function spawnHttp(args, port, env = {}) {
  const child = spawn(process.execPath, args, { stdio: ['ignore', 'ignore', 'inherit'], env: { ...process.env, ...env } });
  const base = `http://127.0.0.1:${port}`;
  for (let i = 0; i < 200; i += 1) {
    try {
      if ((await fetch(`${base}/health`)).ok) break;
    } catch {
      // not listening yet
    }
    if (child.exitCode !== null) throw new Error(`server exited with ${child.exitCode}: ${args.join(' ')}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  return {
    url: new URL(`${base}/mcp`),
    pid: child.pid,
    async connect() {
      const client = newClient();
      await client.connect(new StreamableHTTPClientTransport(new URL(`${base}/mcp`)));
      return client;
    },
    /** The v2 client pinned to 2026-07-28: no session, every POST carries the envelope. */
    async connectModern() {
      const client = new ModernClient({ name: 'mcpfs-bench', version: '1.0.0' }, { versionNegotiation: { mode: { pin: '2026-07-28' } } });
      await client.connect(new ModernHttpTransport(new URL(`${base}/mcp`)));
      return client;
    },
    stop() {
      return new Promise((resolve) => {
        if (child.exitCode !== null) return resolve();
        child.once('exit', resolve);
        child.kill('SIGTERM');
      });
    },
  };
}

export async function ourHttp(config, env = {}) {
  const port = await freePort();
  return spawnHttp([OUR_MAIN, '--config', config, '--port', String(port)], port, env);
}

/** The SDK floor: v2 (the SDK we use) by default, or the v1 floor with `{ v1: true }`. */
export async function floorHttp({ v1 = false } = {}) {
  const port = await freePort();
  return spawnHttp([v1 ? FLOOR_V1_MAIN : FLOOR_MAIN, String(port)], port);
}

/** Resident set size of a process, in MiB (Linux /proc). */
export function rssMiB(pid) {
  try {
    const match = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
    return match ? Number(match[1]) / 1024 : undefined;
  } catch {
    return undefined;
  }
}

/** A tool call that must succeed; returns structuredContent, or the text for servers without one. */
export async function call(client, name, args) {
  const result = await client.callTool({ name, arguments: args });
  if (result.isError) throw new Error(`${name} failed: ${result.content?.[0]?.text}`);
  return result.structuredContent ?? { text: result.content?.[0]?.text };
}
