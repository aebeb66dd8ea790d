import { mkdir, mkdtemp, realpath, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { McpError } from '@modelcontextprotocol/sdk/types.js';
import { startTestServer, type TestServer } from '../support/server.js';

const PNG = Buffer.from('89504e470d0a1a0a0000000d49484452000000010000000108060000001f15c4890000000a49444154789c6360000002000154a24f5d0000000049454e44ae426082', 'hex');
const NOTES = '# Notes\n"quoted" \\ and\ttabs\n';

/** The same tree in both roots' host directories, plus a secret outside every root. */
async function seed(workspace: string, noRead: string, outside: string): Promise<void> {
  await writeFile(join(outside, 'secret.txt'), 'outside secret\n');
  await mkdir(join(workspace, 'src'));
  await writeFile(join(workspace, 'src', 'main.ts'), 'export const x = 1;\n');
  await writeFile(join(workspace, 'notes.md'), NOTES);
  await writeFile(join(workspace, 'pic.png'), PNG);
  await writeFile(join(workspace, 'big.txt'), 'x'.repeat(2 * 1024 * 1024));
  await symlink(join(outside, 'secret.txt'), join(workspace, 'escape.txt'));
  await symlink('src', join(workspace, 'src-link'));
  await writeFile(join(noRead, 'hidden.txt'), 'not for resources\n');
}

/** The checks both transports must pass; `hostPaths` are the directories no message may mention. */
function resourceContract(context: () => { client: Client; hostPaths: string[] }): void {
  const read = (uri: string) => context().client.readResource({ uri });
  const refusal = async (uri: string): Promise<McpError> => {
    const error = await read(uri).then(
      () => undefined,
      (caught: unknown) => caught,
    );
    expect(error).toBeInstanceOf(McpError);
    for (const hostPath of context().hostPaths) expect((error as McpError).message).not.toContain(hostPath);
    return error as McpError;
  };

  it('lists one resource template, mcpfs://{root}/{+path}', async () => {
    const { resourceTemplates } = await context().client.listResourceTemplates();
    expect(resourceTemplates).toEqual([expect.objectContaining({ uriTemplate: 'mcpfs://{root}/{+path}', name: 'file' })]);
  });

  it('lists one resource per root that allows read_file, and no other file resource; the review app with the journal on', async () => {
    const { resources } = await context().client.listResources();
    expect(resources.map((resource) => resource.uri)).toEqual(['mcpfs://workspace/', 'ui://mcp-filesystem/review']);
  });

  it('reads a text file raw, with a mimeType from its extension', async () => {
    expect((await read('mcpfs://workspace/notes.md')).contents).toEqual([{ uri: 'mcpfs://workspace/notes.md', mimeType: 'text/markdown', text: NOTES }]);
    expect((await read('mcpfs://workspace/src/main.ts')).contents[0]).toMatchObject({ text: 'export const x = 1;\n' });
  });

  it('reads a binary file as a base64 blob', async () => {
    const [content] = (await read('mcpfs://workspace/pic.png')).contents;
    expect(content).toEqual({ uri: 'mcpfs://workspace/pic.png', mimeType: 'image/png', blob: PNG.toString('base64') });
  });

  it('reads a directory as a listing, "/" after directories', async () => {
    expect((await read('mcpfs://workspace/')).contents).toEqual([
      { uri: 'mcpfs://workspace/', mimeType: 'text/plain', text: ['big.txt', 'escape.txt', 'notes.md', 'pic.png', 'src/', 'src-link/'].join('\n') },
    ]);
    expect((await read('mcpfs://workspace/src')).contents[0]).toMatchObject({ text: 'main.ts' });
  });

  it('refuses a root whose allowlist lacks read_file', async () => {
    const error = await refusal('mcpfs://noread/hidden.txt');
    expect(error.message).toContain('TOOL_NOT_ALLOWED: ');
    expect(error.message).not.toContain('not for resources');
  });

  it('refuses .. escapes, plain or percent-encoded', async () => {
    for (const uri of ['mcpfs://workspace/../outside/secret.txt', 'mcpfs://workspace/%2e%2e/%2e%2e/etc/passwd', 'mcpfs://workspace/src/..%2F..%2Fsecret.txt']) {
      const error = await refusal(uri);
      expect(error.message).toMatch(/(ACCESS_DENIED|INVALID_PATH|NOT_FOUND): /);
      expect(error.message).not.toContain('outside secret');
    }
  });

  it('refuses a symlink that leads outside the root', async () => {
    const error = await refusal('mcpfs://workspace/escape.txt');
    expect(error.message).toMatch(/(ACCESS_DENIED|NOT_FOUND): /);
    expect(error.message).not.toContain('outside secret');
  });

  it('refuses files over max_full_read_size, unknown roots, missing files and other schemes with CODE: message', async () => {
    expect((await refusal('mcpfs://workspace/big.txt')).message).toContain('FILE_TOO_LARGE: ');
    expect((await refusal('mcpfs://nosuch/a.txt')).message).toContain('UNKNOWN_ROOT: ');
    const missing = await refusal('mcpfs://workspace/missing.txt');
    // -32602 with the URI in data on every revision (SEP-2164; the v2 SDK sends no -32002).
    expect({ code: missing.code, message: missing.message, data: missing.data }).toEqual({
      code: -32602,
      message: expect.stringContaining('NOT_FOUND: '),
      data: { uri: 'mcpfs://workspace/missing.txt' },
    });
    // A URI of another scheme names no resource of this server: not found, with its URI too.
    const foreign = await refusal('file:///etc/passwd');
    expect({ code: foreign.code, message: foreign.message, data: foreign.data }).toEqual({
      code: -32602,
      message: expect.stringContaining('INVALID_ARGUMENT: not a resource of this server'),
      data: { uri: 'file:///etc/passwd' },
    });
  });
}

describe('resources over Streamable HTTP', () => {
  let server: TestServer;
  let client: Client;
  let outside: string;

  beforeAll(async () => {
    server = await startTestServer({ roots: [{ name: 'workspace' }, { name: 'noread', allowedTools: ['list_folder', 'grep'] }] });
    outside = await realpath(await mkdtemp(join(tmpdir(), 'mcp-fs-outside-')));
    await seed(server.rootPath('workspace'), server.rootPath('noread'), outside);
    client = await server.connect();
  });

  afterAll(async () => {
    await server?.stop();
    await rm(outside, { recursive: true, force: true });
  });

  it('declares the resources capability', () => {
    expect(client.getServerCapabilities()?.resources).toBeDefined();
  });

  resourceContract(() => ({ client, hostPaths: [server.rootPath('workspace'), server.rootPath('noread'), outside] }));
});

describe('resources over stdio (child process)', () => {
  let dir: string;
  let client: Client;

  beforeAll(async () => {
    dir = await realpath(await mkdtemp(join(tmpdir(), 'mcp-fs-resources-')));
    for (const sub of ['ws', 'nr', 'outside']) await mkdir(join(dir, sub));
    await seed(join(dir, 'ws'), join(dir, 'nr'), join(dir, 'outside'));
    await writeFile(
      join(dir, 'config.yaml'),
      'roots:\n  - { name: workspace, path: ws, allowed_tools: ["*"] }\n  - { name: noread, path: nr, allowed_tools: [list_folder] }\n',
    );
    client = new Client({ name: 'resources-stdio', version: '1' });
    await client.connect(
      new StdioClientTransport({
        command: process.execPath,
        args: [join(process.cwd(), 'dist', 'main.js'), '--stdio', '--config', join(dir, 'config.yaml')],
        env: { PATH: process.env.PATH ?? '', MCP_FS_LOG_LEVEL: 'error' },
        stderr: 'ignore',
      }),
    );
  });

  afterAll(async () => {
    await client?.close();
    await rm(dir, { recursive: true, force: true });
  });

  resourceContract(() => ({ client, hostPaths: [dir] }));
});
