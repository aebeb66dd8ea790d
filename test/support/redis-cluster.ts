import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';

const MAIN = resolve('dist/main.js');

/** True when the redis-server binary is on PATH (Debian/Ubuntu: apt-get install -y redis-server). */
export function redisServerAvailable(): boolean {
  return spawnSync('redis-server', ['--version'], { stdio: 'ignore' }).status === 0;
}

/** A free TCP port on loopback, released before it is returned. */
export async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
  const { port } = server.address() as { port: number };
  await new Promise<void>((done) => server.close(() => done()));
  return port;
}

async function until(what: string, check: () => Promise<boolean>, timeoutMs = 15_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (await check().catch(() => false)) return;
    await new Promise((done) => setTimeout(done, 50));
  }
  throw new Error(`timed out waiting for ${what}`);
}

function exited(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((done) => child.once('exit', () => done()));
}

/** A real redis-server on 127.0.0.1, no persistence unless asked, data in a temp dir. */
export class RedisProcess {
  private child?: ChildProcess;

  private constructor(
    readonly port: number,
    private readonly dir: string,
  ) {}

  static async start(): Promise<RedisProcess> {
    const redis = new RedisProcess(await freePort(), await mkdtemp(join(tmpdir(), 'mcp-fs-redis-')));
    await redis.restart();
    return redis;
  }

  get url(): string {
    return `redis://127.0.0.1:${this.port}/0`;
  }

  /** Starts it again on the same port and dir (a dump.rdb left by stop({ save: true }) is loaded). */
  async restart(): Promise<void> {
    this.child = spawn(
      'redis-server',
      ['--port', String(this.port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no', '--dir', this.dir],
      { stdio: ['ignore', 'pipe', 'pipe'] },
    );
    let output = '';
    this.child.stdout?.on('data', (chunk: Buffer) => (output += chunk.toString()));
    await until('redis-server to accept connections', async () => output.includes('Ready to accept connections'));
  }

  /** Stops it; with save, its data is written to the dir first so a restart finds the sessions again. */
  async stop(options: { save?: boolean } = {}): Promise<void> {
    const child = this.child;
    if (!child) return;
    this.child = undefined;
    if (options.save) {
      spawnSync('redis-cli', ['-p', String(this.port), 'shutdown', 'save'], { stdio: 'ignore' });
    } else {
      child.kill('SIGKILL');
    }
    await exited(child);
  }

  async destroy(): Promise<void> {
    await this.stop();
    await rm(this.dir, { recursive: true, force: true });
  }
}

/** One `node dist/main.js` over a config file, on a port chosen up front so it can be restarted on it. */
export class ReplicaProcess {
  private child?: ChildProcess;
  /** Everything it logged (JSON lines on stderr). */
  log = '';

  constructor(
    readonly port: number,
    private readonly configFile: string,
  ) {}

  get baseUrl(): string {
    return `http://127.0.0.1:${this.port}`;
  }

  get alive(): boolean {
    return this.child !== undefined;
  }

  async start(): Promise<void> {
    this.child = spawn(process.execPath, [MAIN, '--config', this.configFile, '--port', String(this.port)], {
      stdio: ['ignore', 'ignore', 'pipe'],
    });
    this.child.stderr?.on('data', (chunk: Buffer) => (this.log += chunk.toString()));
    await until(`replica on port ${this.port}`, async () => (await fetch(`${this.baseUrl}/health`)).status === 200);
  }

  /** SIGKILL: no shutdown hook runs, as in a crash. */
  async kill(): Promise<void> {
    const child = this.child;
    this.child = undefined;
    if (!child) return;
    child.kill('SIGKILL');
    await exited(child);
  }

  async waitUntilReady(): Promise<void> {
    await until(`replica on port ${this.port} to be ready`, async () => (await fetch(`${this.baseUrl}/ready`)).status === 200);
  }
}

/** A root and a config file for replicas sharing a Redis. */
export async function replicaConfig(redisUrl: string, sessions: string, extraYaml: readonly string[] = []): Promise<{ dir: string; root: string; configFile: string }> {
  const dir = await mkdtemp(join(tmpdir(), 'mcp-fs-replicas-'));
  const root = join(dir, 'workspace');
  await mkdir(root);
  const configFile = join(dir, 'config.yaml');
  await writeFile(
    configFile,
    [
      'host: 127.0.0.1',
      'log_level: info',
      `sessions: ${sessions}`,
      `session_store: { url: '${redisUrl}' }`,
      ...extraYaml,
      'roots:',
      `  - { name: workspace, path: '${root}', allowed_tools: ["*"] }`,
      '',
    ].join('\n'),
  );
  return { dir, root, configFile };
}

/**
 * A fetch for the SDK client transport that sends each request to the next replica in turn,
 * like a load balancer without sticky sessions, skipping a replica that refuses connections.
 * `sent` records which port served each JSON-RPC method.
 */
export function roundRobinFetch(ports: () => readonly number[]) {
  let next = 0;
  const sent: { method: string; port: number }[] = [];
  const fetchNext = async (input: string | URL | Request, init?: RequestInit): Promise<Response> => {
    const candidates = ports();
    let lastError: unknown;
    for (let attempt = 0; attempt < candidates.length; attempt += 1) {
      const port = candidates[next++ % candidates.length];
      const url = new URL(input instanceof Request ? input.url : input);
      url.port = String(port);
      try {
        const response = await fetch(url, init);
        const rpc = typeof init?.body === 'string' ? (JSON.parse(init.body) as { method?: string; params?: { name?: string } }) : undefined;
        const method = rpc?.method === 'tools/call' ? `tools/call:${rpc.params?.name}` : (rpc?.method ?? init?.method ?? 'GET');
        sent.push({ method, port });
        return response;
      } catch (error) {
        // Connection refused: the request never reached a server, so another may take it.
        if ((error as { cause?: { code?: string } }).cause?.code !== 'ECONNREFUSED') throw error;
        lastError = error;
      }
    }
    throw lastError;
  };
  return { fetch: fetchNext, sent };
}

/**
 * `describe` when redis-server is installed. Otherwise the suite is not skipped: it fails, in one
 * case that names the file, what it covers and how to install redis-server (.ci/run installs it),
 * so a missing Redis never passes for covered.
 */
export function redisSuite(file: string, covers: string): typeof describe {
  if (redisServerAvailable()) return describe;
  const missing = (name: string) =>
    describe(name, () => {
      it('needs redis-server', () => {
        throw new Error(`${file} (${covers}) needs redis-server: install it with \`sudo apt-get install -y redis-server\` (Debian/Ubuntu); .ci/run installs it`);
      });
    });
  return missing as unknown as typeof describe;
}
