import { spawn } from 'node:child_process';
import { mkdir, mkdtemp, realpath, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startTestServer } from '../../support/server.js';

// Runs the built server (`npm test` builds dist/ first) exactly as an operator would.
const MAIN = join(process.cwd(), 'dist', 'main.js');

let dir: string;

beforeEach(async () => {
  dir = await realpath(await mkdtemp(join(tmpdir(), 'mcp-fs-e2e-auth-')));
  await mkdir(join(dir, 'workspace'));
});

afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

function run(args: string[], env: NodeJS.ProcessEnv): Promise<{ code: number | null; stderr: string }> {
  const child = spawn(process.execPath, [MAIN, ...args], { env: { PATH: process.env.PATH, ...env }, stdio: ['ignore', 'ignore', 'pipe'] });
  let stderr = '';
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  return new Promise((resolve) => child.on('close', (code) => resolve({ code, stderr })));
}

describe('start-up without authentication', () => {
  it('refuses mode none on a non-loopback host with one clear line, before listening', async () => {
    const file = join(dir, 'config.yaml');
    await writeFile(file, 'allowed_hosts: ["*"]\nroots:\n  - { name: workspace, path: workspace, allowed_tools: ["*"] }\n');
    const { code, stderr } = await run(['--config', file, '--host', '0.0.0.0', '--port', '0'], {});
    expect(code).not.toBe(0);
    expect(stderr.trim().split('\n')).toEqual([
      'config error: auth.mode: is none while host 0.0.0.0 is not loopback: anyone who reaches the port could read and write ' +
        'every root; set auth.mode to tokens or oauth, or auth.allow_unauthenticated: true to accept that',
    ]);
  });

  it('logs a WARN at start when the operator allowed unauthenticated access', async () => {
    const server = await startTestServer({ auth: { mode: 'none', allowUnauthenticated: true } });
    try {
      const warnings = server.logger.entries.filter((entry) => entry.level === 'warn' && entry.message.startsWith('authentication is off'));
      expect(warnings).toHaveLength(1);
    } finally {
      await server.stop();
    }
  });

  it('logs no such WARN on plain loopback', async () => {
    const server = await startTestServer();
    try {
      expect(server.logger.entries.some((entry) => entry.message.startsWith('authentication is off'))).toBe(false);
    } finally {
      await server.stop();
    }
  });
});
