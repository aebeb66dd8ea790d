import { spawn, type ChildProcess } from 'node:child_process';
import { mkdir, mkdtemp, realpath, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';

// Runs the built server (`npm test` builds dist/ first) exactly as an operator would.
const MAIN = join(process.cwd(), 'dist', 'main.js');

let dir: string;
const children: ChildProcess[] = [];

beforeEach(async () => {
  dir = await realpath(await mkdtemp(join(tmpdir(), 'mcp-fs-e2e-config-')));
  await mkdir(join(dir, 'workspace'));
  await mkdir(join(dir, 'data'));
});

afterEach(async () => {
  for (const child of children.splice(0)) if (child.exitCode === null) child.kill('SIGKILL');
  await rm(dir, { recursive: true, force: true });
});

async function configFile(yaml: string): Promise<string> {
  const file = join(dir, 'config.yaml');
  await writeFile(file, yaml);
  return file;
}

function start(args: string[], env: NodeJS.ProcessEnv = {}): ChildProcess {
  const child = spawn(process.execPath, [MAIN, ...args], {
    env: { PATH: process.env.PATH, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  children.push(child);
  return child;
}

interface Exit {
  code: number | null;
  stdout: string;
  stderr: string;
}

function exitOf(child: ChildProcess): Promise<Exit> {
  let stdout = '';
  let stderr = '';
  child.stdout!.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
  child.stderr!.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  return new Promise((resolve) => child.on('close', (code) => resolve({ code, stdout, stderr })));
}

/** Resolves with the startup log record (JSON on stderr) once the server listens. */
function listening(child: ChildProcess): Promise<Record<string, unknown>> {
  return new Promise((resolve, reject) => {
    const lines = createInterface({ input: child.stderr! });
    lines.on('line', (line) => {
      if (!line.startsWith('{')) return reject(new Error(`unexpected stderr line: ${line}`));
      const record = JSON.parse(line) as Record<string, unknown>;
      if (record.message === 'mcp-filesystem listening') resolve(record);
    });
    child.on('exit', (code) => reject(new Error(`server exited with ${code} before listening`)));
  });
}

const VALID = `
roots:
  - name: workspace
    path: workspace
    allowed_tools: ["*"]
  - name: data
    path: data
    allowed_tools: [read_file, list_folder]
`;

describe('configuration (child process)', () => {
  it('E2E-080: starts with a valid config, logs where it listens, and serves /health', async () => {
    const child = start(['--config', await configFile(VALID), '--port', '0']);
    const record = await listening(child);

    // NFR-018: address, root names (never their paths) and the config file.
    expect(record).toMatchObject({ level: 'info', roots: ['workspace', 'data'], config_file: join(dir, 'config.yaml') });
    expect(JSON.stringify(record)).not.toContain(join(dir, 'workspace'));
    const url = new URL(record.url as string);
    expect(url.pathname).toBe('/mcp');
    expect(record.address).toBe(url.host);

    const health = await fetch(new URL('/health', url));
    expect(health.status).toBe(200);
    expect(await health.text()).toBe('ok');

    const exited = exitOf(child);
    child.kill('SIGTERM');
    const { code } = await exited;
    expect(code).toBe(0);
  });

  it('E2E-084: the health endpoint returns 200 "ok" on a server configured through the environment', async () => {
    const child = start([], { MCP_FS_CONFIG: await configFile(VALID), MCP_FS_PORT: '0', MCP_FS_LOG_LEVEL: 'info' });
    const record = await listening(child);
    const health = await fetch(new URL('/health', record.url as string));
    expect(health.status).toBe(200);
    expect(await health.text()).toBe('ok');
  });

  async function expectStartupFailure(args: string[], expected: RegExp): Promise<void> {
    const { code, stdout, stderr } = await exitOf(start(args));
    expect(code).not.toBe(0);
    expect(stdout).toBe('');
    const lines = stderr.trimEnd().split('\n');
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(expected);
    expect(stderr).not.toMatch(/\n\s+at /);
  }

  it('E2E-081: exits at once on duplicate root names', async () => {
    const file = await configFile(`
roots:
  - { name: data, path: workspace, allowed_tools: ["*"] }
  - { name: data, path: data, allowed_tools: ["*"] }
`);
    await expectStartupFailure(['--config', file], /^config error: roots\[1\]\.name: duplicate root name "data"$/);
  });

  it('E2E-082: exits at once on a root path that does not exist', async () => {
    const file = await configFile('roots:\n  - { name: gone, path: /nonexistent/mcp-fs-root, allowed_tools: ["*"] }\n');
    await expectStartupFailure(['--config', file], /^config error: roots\[0\]\.path: directory does not exist: \/nonexistent\/mcp-fs-root$/);
  });

  it('E2E-083: exits at once on an unknown tool in an allowlist', async () => {
    const file = await configFile('roots:\n  - { name: ws, path: workspace, allowed_tools: [read_file, nonexistent_tool] }\n');
    await expectStartupFailure(['--config', file], /^config error: roots\[0\]\.allowed_tools: unknown tool name "nonexistent_tool"$/);
  });

  it('exits at once on unparseable YAML, naming the file', async () => {
    const file = await configFile('roots: [\n  - name: x\n');
    await expectStartupFailure(['--config', file], /^config error: config: cannot load .*config\.yaml: /);
  });

  it('exits at once when HTTP is asked for with no config file', async () => {
    await expectStartupFailure(['--http'], /^config error: config: no config file given/);
  });

  it('exits with one line when the port is taken', async () => {
    const first = start(['--config', await configFile(VALID), '--port', '0']);
    const port = new URL((await listening(first)).url as string).port;
    await expectStartupFailure(['--config', join(dir, 'config.yaml'), '--port', port], /^mcp-filesystem: listen EADDRINUSE/);
  });

  it('--help prints the usage and exits 0', async () => {
    const { code, stdout } = await exitOf(start(['--help']));
    expect(code).toBe(0);
    expect(stdout).toMatch(/^usage: mcp-filesystem \[options\] DIR \[DIR...\]  \|  mcp-filesystem --config FILE/);
  });
});
