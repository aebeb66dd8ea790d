import { spawn, type ChildProcess } from 'node:child_process';
import { mkdir, mkdtemp, readFile, realpath, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { callTool } from '../support/mcp.js';

// The built server (`npm test` builds dist/ first), started the way a client config starts it.
const MAIN = join(process.cwd(), 'dist', 'main.js');
const ENV = { PATH: process.env.PATH ?? '', MCP_FS_LOG_LEVEL: 'error' };

let dir: string;
const clients: Client[] = [];
const children: ChildProcess[] = [];

beforeEach(async () => {
  dir = await realpath(await mkdtemp(join(tmpdir(), 'mcp-fs-e2e-zero-')));
  await mkdir(join(dir, 'one', 'x'), { recursive: true });
  await mkdir(join(dir, 'two', 'x'), { recursive: true });
  await writeFile(join(dir, 'one', 'x', 'a.txt'), 'from one\n');
  await writeFile(join(dir, 'two', 'x', 'b.txt'), 'from two\n');
});

afterEach(async () => {
  await Promise.all(clients.splice(0).map((client) => client.close()));
  for (const child of children.splice(0)) if (child.exitCode === null) child.kill('SIGKILL');
  await rm(dir, { recursive: true, force: true });
});

async function stdioClient(args: string[]): Promise<Client> {
  const transport = new StdioClientTransport({ command: process.execPath, args: [MAIN, ...args], env: ENV, stderr: 'pipe' });
  const client = new Client({ name: 'zero-config-test', version: '1' });
  await client.connect(transport);
  clients.push(client);
  return client;
}

function run(args: string[], env: NodeJS.ProcessEnv = {}): Promise<{ code: number | null; stdout: string; stderr: string }> {
  const child = spawn(process.execPath, [MAIN, ...args], { env: { ...ENV, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
  children.push(child);
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  return new Promise((resolve) => child.on('close', (code) => resolve({ code, stdout, stderr })));
}

describe('zero-config command line (child process)', () => {
  it('serves each DIR as a root over stdio, same base names as x and x-2', async () => {
    const client = await stdioClient([join(dir, 'one', 'x'), join(dir, 'two', 'x')]);
    const roots = await callTool(client, 'list_roots', {});
    expect(roots.structured).toEqual({
      roots: [
        { name: 'x', allowed_tools: ['*'] },
        { name: 'x-2', allowed_tools: ['*'] },
      ],
    });
    expect((await callTool(client, 'read_file', { root: 'x-2', path: 'b.txt' })).structured).toMatchObject({ content: 'from two\n' });
    const write = await callTool(client, 'write_file', { root: 'x', path: 'new.txt', content: 'written\n' });
    expect(write.isError).toBe(false);
    expect(await readFile(join(dir, 'one', 'x', 'new.txt'), 'utf8')).toBe('written\n');
  });

  it('--read-only refuses a write with TOOL_NOT_ALLOWED and still reads', async () => {
    const client = await stdioClient(['--read-only', join(dir, 'one', 'x')]);
    const write = await callTool(client, 'write_file', { root: 'x', path: 'new.txt', content: 'no\n' });
    expect(write.isError).toBe(true);
    expect(write.text).toMatch(/^TOOL_NOT_ALLOWED: /);
    const edit = await callTool(client, 'file_write', { path: '/x/new.txt', content: 'no\n' });
    expect(edit.text).toMatch(/^TOOL_NOT_ALLOWED: /);
    await expect(readFile(join(dir, 'one', 'x', 'new.txt'))).rejects.toMatchObject({ code: 'ENOENT' });
    expect((await callTool(client, 'read_file', { root: 'x', path: 'a.txt' })).structured).toMatchObject({ content: 'from one\n' });
    // read_files has read_file's permission, so it joins --read-only (over stdio here).
    const batch = await callTool(client, 'read_files', { root: 'x', paths: ['a.txt', 'gone.txt'] });
    expect(batch.isError).toBe(false);
    expect(batch.text).toMatch(/^==> a\.txt <==\nfrom one\n\n==> gone\.txt <==\nERROR NOT_FOUND: /);
  });

  it('--toolsets lists only those families; a hidden tool is refused exactly like an unknown one', async () => {
    const client = await stdioClient(['--toolsets', 'editor', join(dir, 'one', 'x')]);
    const names = (await client.listTools()).tools.map((tool) => tool.name).sort();
    expect(names).toEqual(['change_directory', 'create_file', 'str_replace', 'view']);
    const hidden = await callTool(client, 'read_file', { root: 'x', path: 'a.txt' });
    const unknown = await callTool(client, 'no_such_tool', { root: 'x', path: 'a.txt' });
    expect(hidden.isError).toBe(true);
    expect(hidden.text.replace('read_file', 'TOOL')).toBe(unknown.text.replace('no_such_tool', 'TOOL'));
    expect((await callTool(client, 'view', { path: '/x/a.txt' })).isError).toBe(false);
  });

  it('MCP_FS_TOOLSETS picks the families too', async () => {
    const transport = new StdioClientTransport({
      command: process.execPath,
      args: [MAIN, join(dir, 'one', 'x')],
      env: { ...ENV, MCP_FS_TOOLSETS: 'repo' },
    });
    const client = new Client({ name: 'zero-config-test', version: '1' });
    await client.connect(transport);
    clients.push(client);
    expect((await client.listTools()).tools.map((tool) => tool.name).sort()).toEqual(['file_list', 'file_read', 'file_write']);
  });

  it('--http serves Streamable HTTP on --host/--port', async () => {
    const child = spawn(process.execPath, [MAIN, '--http', '--port', '0', '--host', '127.0.0.1', join(dir, 'one', 'x')], {
      env: { ...ENV, MCP_FS_LOG_LEVEL: 'info' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    children.push(child);
    const url = await new Promise<string>((resolve, reject) => {
      createInterface({ input: child.stderr }).on('line', (line) => {
        const record = JSON.parse(line) as { message?: string; url?: string };
        if (record.message === 'mcp-filesystem listening' && record.url) resolve(record.url);
      });
      child.on('exit', (code) => reject(new Error(`server exited with ${code}`)));
    });
    const client = new Client({ name: 'zero-config-test', version: '1' });
    await client.connect(new StreamableHTTPClientTransport(new URL(url)));
    clients.push(client);
    expect((await callTool(client, 'read_file', { root: 'x', path: 'a.txt' })).structured).toMatchObject({ content: 'from one\n' });
  });

  it('an allowlist naming a tool of a disabled toolset is a one-line config error naming both', async () => {
    const file = join(dir, 'config.yaml');
    await writeFile(file, `toolsets: [root]\nroots:\n  - { name: w, path: one/x, allowed_tools: [read_file, view] }\n`);
    const result = await run(['--config', file]);
    expect(result.code).toBe(1);
    expect(result.stderr).toBe('config error: roots[0].allowed_tools: "view" belongs to toolset "editor", which is not enabled (toolsets: root)\n');
  });

  it('DIR arguments with --config is a one-line error', async () => {
    const result = await run(['--config', join(dir, 'config.yaml'), join(dir, 'one', 'x')]);
    expect(result.code).toBe(1);
    expect(result.stderr).toBe(
      'mcp-filesystem: DIR arguments and --config exclude each other: give directories or a config file (see mcp-filesystem --help)\n',
    );
  });

  it('--help lists the options and variables; --version prints the package version', async () => {
    const help = await run(['--help']);
    expect(help.code).toBe(0);
    expect(help.stdout).toMatch(/^usage: mcp-filesystem \[options\] DIR/);
    for (const text of ['--read-only', '--http', '--toolsets', 'MCP_FS_TOOLSETS', 'MCP_FS_CONFIG']) expect(help.stdout).toContain(text);
    const version = await run(['--version']);
    const { version: expected } = JSON.parse(await readFile(join(process.cwd(), 'package.json'), 'utf8')) as { version: string };
    expect(version).toEqual({ code: 0, stdout: `${expected}\n`, stderr: '' });
  });
});
