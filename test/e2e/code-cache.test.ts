import { chmod, cp, lstat, mkdir, mkdtemp, readdir, readFile, rm, stat, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';

// Issue 31.1: the bin runs the server bundle through a V8 code cache kept beside it (dist/code-cache/).
// A copy of the built launcher and bundle inside the project (so node_modules and package.json resolve)
// keeps these starts from touching the dist/ other tests run.
describe('the V8 code cache beside the bundle', () => {
  let copy: string;
  let served: string;
  const cacheDir = () => join(copy, 'code-cache');
  const cacheFile = async () => {
    const names = (await readdir(cacheDir())).filter((name) => name.endsWith('.bin'));
    expect(names).toHaveLength(1);
    return join(cacheDir(), names[0]);
  };

  beforeAll(async () => {
    copy = await mkdtemp(join(process.cwd(), '.code-cache-test-'));
    for (const file of ['main.js', 'server.cjs', 'review']) await cp(join(process.cwd(), 'dist', file), join(copy, file), { recursive: true });
    served = await mkdtemp(join(tmpdir(), 'mcpfs-code-cache-'));
    await writeFile(join(served, 'hello.txt'), 'hello\n');
  });
  afterAll(async () => {
    await rm(copy, { recursive: true, force: true });
    await rm(served, { recursive: true, force: true });
  });

  /** One stdio start that serves read_file; resolves once the process has exited (the cache is written at exit). */
  async function start(): Promise<void> {
    const transport = new StdioClientTransport({
      command: process.execPath,
      args: [join(copy, 'main.js'), served],
      env: { PATH: process.env.PATH ?? '', MCP_FS_LOG_LEVEL: 'error', MCP_FS_JOURNAL_ENABLED: 'false' },
      stderr: 'ignore',
    });
    const client = new Client({ name: 'code-cache-test', version: '1' });
    await client.connect(transport);
    const pid = transport.pid!;
    try {
      const result = await client.callTool({ name: 'read_file', arguments: { root: served.split('/').pop(), path: 'hello.txt' } });
      expect(result.structuredContent).toMatchObject({ content: 'hello\n' });
    } finally {
      await client.close();
    }
    for (let i = 0; i < 200 && (await alive(pid)); i += 1) await new Promise((resolve) => setTimeout(resolve, 50));
  }

  it('is written, private, by a first start and used as it is by the next', async () => {
    await start();
    const file = await cacheFile();
    expect((await stat(cacheDir())).mode & 0o777).toBe(0o700);
    const first = await stat(file);
    expect(first.mode & 0o777).toBe(0o600);
    expect(first.size).toBeGreaterThan(100_000);
    await start();
    const second = await stat(file);
    expect({ ino: second.ino, mtime: second.mtimeMs }).toEqual({ ino: first.ino, mtime: first.mtimeMs });
  });

  it('is left by no run that only prints (--help, --version) or fails: the first start that serves writes it', async () => {
    await rm(cacheDir(), { recursive: true, force: true });
    await runToExit([join(copy, 'main.js'), '--help']);
    await runToExit([join(copy, 'main.js'), '--version']);
    await runToExit([join(copy, 'main.js'), '--config', join(served, 'no-such.yaml')]);
    expect((await readdir(cacheDir()).catch(() => [])).filter((name) => name.endsWith('.bin'))).toEqual([]);
    await start();
    const written = await stat(await cacheFile());
    expect(written.size).toBeGreaterThan(100_000);
    await runToExit([join(copy, 'main.js'), '--help']);
    const after = await stat(await cacheFile());
    expect({ ino: after.ino, mtime: after.mtimeMs }).toEqual({ ino: written.ino, mtime: written.mtimeMs });
  });

  it('falls back to a compile when V8 refuses the data, and writes it again', async () => {
    const file = await cacheFile();
    await writeFile(file, Buffer.alloc(4096, 7), { mode: 0o600 });
    await start();
    const rewritten = await readFile(file);
    expect(rewritten.length).toBeGreaterThan(100_000);
  });

  // Security: cached data is code; a file another user could have written, or a link, is never run: it
  // is replaced (a trusted, valid file is used as it is, above).
  it('replaces a valid cache file others may write, and a link to one, instead of using it', async () => {
    const file = await cacheFile();
    await chmod(file, 0o666);
    const shared = await stat(file);
    await start();
    const replaced = await stat(file);
    expect(replaced.ino).not.toBe(shared.ino);
    expect(replaced.mode & 0o777).toBe(0o600);

    const elsewhere = join(served, 'elsewhere.bin');
    await cp(file, elsewhere);
    const valid = await readFile(elsewhere);
    await rm(file);
    await symlink(elsewhere, file);
    await start();
    expect((await lstat(file)).isSymbolicLink()).toBe(false);
    expect((await readFile(elsewhere)).equals(valid)).toBe(true);
  });

  it('leaves no partial file behind when the cache cannot be written', async () => {
    const file = await cacheFile();
    // A non-empty folder where the cache goes: the temp file is written, its rename fails.
    await rm(file);
    await mkdir(file);
    await writeFile(join(file, 'keep'), '');
    await start();
    expect((await readdir(cacheDir())).filter((name) => name.endsWith('.tmp'))).toEqual([]);
    await rm(file, { recursive: true });
  });

  it('is not kept when the folder beside the bundle is writable by others', async () => {
    await rm(cacheDir(), { recursive: true, force: true });
    await mkdir(cacheDir(), { mode: 0o700 });
    await chmod(copy, 0o777);
    try {
      await start();
      expect(await readdir(cacheDir())).toEqual([]);
    } finally {
      await chmod(copy, 0o755);
    }
  });
});

async function alive(pid: number): Promise<boolean> {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

/** Runs the launcher with these arguments to its exit. */
async function runToExit(args: string[]): Promise<void> {
  const { spawn } = await import('node:child_process');
  await new Promise<void>((resolve, reject) => {
    const child = spawn(process.execPath, args, { stdio: 'ignore', env: { PATH: process.env.PATH ?? '' } });
    child.on('error', reject);
    child.on('exit', () => resolve());
  });
}
