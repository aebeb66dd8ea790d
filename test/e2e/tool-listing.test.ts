import { mkdtemp, realpath, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { callTool } from '../support/mcp.js';
import { sha256Hex } from '../support/raw-mcp.js';
import { startTestServer, type TestServer } from '../support/server.js';
import { TOOLS } from '../support/tools.js';

/** Tools that change nothing on disk (the catalog's read-only ones, allowlistable or always offered). */
const NEVER_WRITING: readonly string[] = TOOLS.names.filter((name) => TOOLS.factsOf(name)?.readOnly === true);
/** Writing tools that only add (a new folder) and never remove or overwrite what exists: the one exception. */
const ONLY_ADDING = ['create_folder'];
/**
 * Every tool that can remove or overwrite content a file or folder already has (MCP: destructiveHint
 * true): each writing tool of the catalog unless it only adds, so a new writing tool counts as
 * destructive until it is shown not to be.
 */
const DESTRUCTIVE_TOOLS: readonly string[] = TOOLS.names.filter((name) => TOOLS.factsOf(name)?.readOnly === false && !ONLY_ADDING.includes(name));
const WRITER_TOKEN = 'writer-token-5c1e0f';
const READER_TOKEN = 'reader-token-77ab2d';

async function names(client: Client): Promise<string[]> {
  return (await client.listTools()).tools.map((tool) => tool.name).sort();
}

describe('annotations over Streamable HTTP', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer();
  });
  afterAll(async () => {
    await server.stop();
  });

  it('say destructive for every tool that can remove or overwrite, read-only for the ones that never write', async () => {
    const tools = (await (await server.connect()).listTools()).tools;
    // Every catalogued tool: list_changes and undo_changes too, with the journal on (the default).
    expect(tools.map((tool) => tool.name)).toEqual(TOOLS.names);
    for (const tool of tools) {
      const hints = tool.annotations ?? {};
      // An absent hint means the spec default: readOnlyHint false, destructiveHint true, idempotentHint false.
      const readOnly = hints.readOnlyHint ?? false;
      const destructive = readOnly ? false : (hints.destructiveHint ?? true);
      expect({ tool: tool.name, readOnly }).toEqual({ tool: tool.name, readOnly: NEVER_WRITING.includes(tool.name) });
      expect({ tool: tool.name, destructive }).toEqual({ tool: tool.name, destructive: DESTRUCTIVE_TOOLS.includes(tool.name) });
    }
    const idempotent = tools.filter((tool) => !tool.annotations?.readOnlyHint && tool.annotations?.idempotentHint).map((tool) => tool.name);
    // Same arguments twice leave what once leaves; write_file may append, str_replace's new text may hold the old, patch hunks float.
    expect(idempotent.sort()).toEqual(['create_file', 'create_folder', 'file_write']);
  });
});

describe('tools/list offers only what the session can use somewhere (HTTP)', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer({
      roots: [{ name: 'code', allowedTools: ['read_file', 'grep', 'write_file'] }, { name: 'notes', allowedTools: ['read_file', 'view'] }],
      auth: {
        mode: 'tokens',
        tokens: [
          { name: 'writer', sha256: sha256Hex(WRITER_TOKEN), readOnly: false },
          { name: 'reader', sha256: sha256Hex(READER_TOKEN), readOnly: true },
        ],
      },
    });
  });
  afterAll(async () => {
    await server.stop();
  });

  it('lists the union of the roots\' allowlists plus list_roots, change_directory and (journal on) list_changes and review_changes', async () => {
    const writer = await server.connect({ bearer: WRITER_TOKEN });
    // undo_changes only where a root allows it (neither does here); list_changes and review_changes wherever any tool is allowed.
    expect(await names(writer)).toEqual(['change_directory', 'grep', 'list_changes', 'list_roots', 'read_file', 'read_files', 'review_changes', 'view', 'write_file']);
  });

  it('leaves out the writing tools for a read_only principal; calling one answers TOOL_NOT_ALLOWED, not "unknown tool"', async () => {
    const reader = await server.connect({ bearer: READER_TOKEN });
    expect(await names(reader)).toEqual(['change_directory', 'grep', 'list_changes', 'list_roots', 'read_file', 'read_files', 'review_changes', 'view']);
    const write = await callTool(reader, 'write_file', { root: 'code', path: 'a.txt', content: 'x' });
    expect(write.isError).toBe(true);
    expect(write.text).toMatch(/^TOOL_NOT_ALLOWED: tool write_file is not allowed on any root this session may use/);
    const unlisted = await callTool(reader, 'remove_folder', { root: 'code', path: 'x' });
    expect(unlisted.text).toMatch(/^TOOL_NOT_ALLOWED/);
    // A security denial like any other: logged at warn with the principal.
    expect(server.logger.entries.filter((entry) => entry.level === 'warn' && entry.message === 'security denial').map((entry) => [entry.fields.tool, entry.fields.principal])).toEqual(
      expect.arrayContaining([['write_file', 'token:reader'], ['remove_folder', 'token:reader']]),
    );
    expect((await callTool(reader, 'no_such_tool', {})).text).toMatch(/unknown tool: no_such_tool/);
  });

  it('keeps TOOL_NOT_ALLOWED per root for a listed tool that this root does not allow', async () => {
    const writer = await server.connect({ bearer: WRITER_TOKEN });
    const refused = await callTool(writer, 'write_file', { root: 'notes', path: 'a.txt', content: 'x' });
    expect(refused.text).toBe('TOOL_NOT_ALLOWED: tool write_file not allowed on root notes');
  });
});

describe('tools/list over stdio with --read-only', () => {
  let dir: string;
  beforeAll(async () => {
    dir = await realpath(await mkdtemp(join(tmpdir(), 'mcp-fs-listing-')));
  });
  afterAll(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  it('offers only the read-only tools, and a writing tool called anyway answers TOOL_NOT_ALLOWED', async () => {
    const client = new Client({ name: 'listing-test', version: '1' });
    await client.connect(new StdioClientTransport({ command: process.execPath, args: [join(process.cwd(), 'dist', 'main.js'), '--stdio', '--read-only', dir], env: { PATH: process.env.PATH ?? '' }, stderr: 'ignore' }));
    try {
      expect(await names(client)).toEqual([...NEVER_WRITING].sort());
      const write = await callTool(client, 'file_write', { path: 'a.txt', content: 'x' });
      expect(write.text).toMatch(/^TOOL_NOT_ALLOWED: tool file_write is not allowed on any root/);
      expect((await callTool(client, 'list_roots', {})).isError).toBe(false);
    } finally {
      await client.close();
    }
  });
});
