import { Agent, request } from 'node:http';
import { mkdtemp, realpath, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { requestLimitBytes } from '../../src/adapters/inbound/mcp/transports/request-size.js';
import { SessionRegistry } from '../../src/adapters/inbound/mcp/protocol/session-registry.js';
import { TOKENS } from '../../src/composition/tokens.js';
import { callTool } from '../support/mcp.js';
import { useTestServer } from '../support/live-server.js';
import { INITIALIZE, MCP_HEADERS, PING } from '../support/raw-mcp.js';

interface RawResponse {
  status: number;
  body: string;
}

/** node:http rather than fetch: fetch will not send a forged Host header. */
function send(url: string, options: { method?: string; headers?: Record<string, string>; body?: string }): Promise<RawResponse> {
  return new Promise((resolve, reject) => {
    const req = request(url, { method: options.method ?? 'GET', headers: options.headers }, (res) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => (body += chunk));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
    });
    req.on('error', reject);
    req.end(options.body);
  });
}


describe('Streamable HTTP sessions', () => {
  const live = useTestServer();

  it('initialize answers with a session id and serverInfo', async () => {
    const client = await live.server.connect();
    expect(client.getServerVersion()).toMatchObject({ name: 'mcp-filesystem' });
    await expect(client.ping()).resolves.toBeDefined();
  });

  it('rejects a request without a session id that is not initialize (400)', async () => {
    const response = await send(live.server.url, { method: 'POST', headers: MCP_HEADERS, body: PING });
    expect(response.status).toBe(400);
    expect(JSON.parse(response.body).error.message).toMatch(/No valid session ID/);
  });

  it('rejects an unknown session id (404)', async () => {
    const headers = { ...MCP_HEADERS, 'mcp-session-id': 'no-such-session' };
    expect((await send(live.server.url, { method: 'POST', headers, body: PING })).status).toBe(404);
    expect((await send(live.server.url, { method: 'GET', headers })).status).toBe(404);
    expect((await send(live.server.url, { method: 'DELETE', headers })).status).toBe(404);
  });

  it('answers invalid JSON with a JSON-RPC parse error (400)', async () => {
    const response = await send(live.server.url, { method: 'POST', headers: MCP_HEADERS, body: '{"jsonrpc": ' });
    expect(response.status).toBe(400);
    expect(JSON.parse(response.body).error.code).toBe(-32700);
  });

  it('refuses a body whose declared length is over the size limit (413), before reading it', async () => {
    const limit = requestLimitBytes(live.server.config.settings.maxFileSize);
    const headers = { ...MCP_HEADERS, 'content-length': String(limit + 1) };
    const response = await send(live.server.url, { method: 'POST', headers, body: '' });
    expect(response.status).toBe(413);
    expect(JSON.parse(response.body).error.message).toContain(`Request too large: ${limit + 1} bytes; at most ${limit} bytes`);
  });

  it('answers other methods on /mcp with 405', async () => {
    expect((await send(live.server.url, { method: 'PUT', headers: MCP_HEADERS, body: INITIALIZE })).status).toBe(405);
  });

  it('E2E-084: GET /health returns 200 "ok"', async () => {
    const response = await fetch(`${live.server.baseUrl}/health`);
    expect(response.status).toBe(200);
    expect(await response.text()).toBe('ok');
  });

  it('keeps an idle keep-alive connection past Node\'s 5 s default, so a client reusing it is not reset', async () => {
    const agent = new Agent({ keepAlive: true, maxSockets: 1 });
    const get = () =>
      new Promise<{ status: number; reused: boolean; keepAlive?: string }>((resolve, reject) => {
        const req = request(`${live.server.baseUrl}/health`, { agent }, (res) => {
          res.resume();
          res.on('end', () => resolve({ status: res.statusCode ?? 0, reused: req.reusedSocket, keepAlive: res.headers['keep-alive'] as string | undefined }));
        });
        req.on('error', reject);
        req.end();
      });
    try {
      expect(await get()).toEqual({ status: 200, reused: false, keepAlive: 'timeout=65' });
      await new Promise((resolve) => setTimeout(resolve, 5_500));
      expect(await get()).toMatchObject({ status: 200, reused: true });
    } finally {
      agent.destroy();
    }
  }, 15_000);
});

describe('argument validation over Streamable HTTP', () => {
  const live = useTestServer();

  it('E2E-073: bad arguments come back as INVALID_ARGUMENT naming each parameter, and every call is logged', async () => {
    expect(await callTool(live.client, 'read_file', { path: 'a.txt' })).toMatchObject({
      isError: true,
      text: 'INVALID_ARGUMENT: invalid arguments for read_file: root: required',
    });
    expect((await callTool(live.client, 'read_file', { root: 'workspace', path: 7, offset_bytes: -1 })).text).toBe(
      'INVALID_ARGUMENT: invalid arguments for read_file: path: expected string, got number; offset_bytes: must be >= 0',
    );
    expect((await callTool(live.client, 'read_file', { root: 'workspace', path: 'a.txt', offest_bytes: 3 })).text).toBe(
      'INVALID_ARGUMENT: invalid arguments for read_file: unknown parameter: offest_bytes',
    );
    expect((await callTool(live.client, 'read_filez', { root: 'workspace' })).text).toBe('INVALID_ARGUMENT: unknown tool: read_filez');

    const calls = live.server.logger.withMessage('tool call').map((entry) => entry.fields);
    expect(calls).toEqual([
      expect.objectContaining({ tool: 'read_file', path: 'a.txt', outcome: 'error', error_code: 'INVALID_ARGUMENT' }),
      expect.objectContaining({ tool: 'read_file', root: 'workspace', outcome: 'error', error_code: 'INVALID_ARGUMENT' }),
      expect.objectContaining({ tool: 'read_file', root: 'workspace', path: 'a.txt', outcome: 'error', error_code: 'INVALID_ARGUMENT' }),
      expect.objectContaining({ tool: 'read_filez', outcome: 'error', error_code: 'INVALID_ARGUMENT' }),
    ]);
    for (const call of calls) expect(call).toMatchObject({ duration_ms: expect.any(Number), response_bytes: expect.any(Number), session: expect.any(String) });
  });

  it('lists the input schemas closed to unknown parameters, with their descriptions', async () => {
    const readFile = (await live.client.listTools()).tools.find((tool) => tool.name === 'read_file');
    expect(readFile?.inputSchema).toMatchObject({
      type: 'object',
      required: expect.arrayContaining(['root', 'path']),
      additionalProperties: false,
      properties: { root: { type: 'string' }, offset_lines: { type: 'integer', description: expect.any(String) } },
    });
  });
});

describe('session end', () => {
  const ended: string[] = [];
  let registry: SessionRegistry;
  const live = useTestServer({
    configure: (container) => {
      container.bind(TOKENS.SessionEndListener).toConstantValue({ sessionEnded: (id: string) => ended.push(id) });
      registry = container.get(SessionRegistry);
    },
  });

  it('DELETE ends the session: listeners hear of it once and the id is rejected afterwards', async () => {
    const transport = new StreamableHTTPClientTransport(new URL(live.server.url));
    const client = new Client({ name: 'session-test', version: '1' });
    await client.connect(transport);
    const sessionId = transport.sessionId!;
    expect(sessionId).toMatch(/^[0-9a-f-]{36}$/);

    await transport.terminateSession();
    expect(ended).toEqual([sessionId]);
    const afterwards = await send(live.server.url, { method: 'POST', headers: { ...MCP_HEADERS, 'mcp-session-id': sessionId }, body: PING });
    expect(afterwards.status).toBe(404);
    expect(live.server.logger.withMessage('session ended').map((entry) => entry.fields.session)).toEqual([sessionId]);
    await client.close();
  });

  it('stopping the server closes the sessions it serves, but does not end them: a restarted replica serves them on', async () => {
    const transport = new StreamableHTTPClientTransport(new URL(live.server.url));
    const client = new Client({ name: 'session-test', version: '1' });
    await client.connect(transport);
    expect(registry.get(transport.sessionId!)).toBeDefined();

    await live.server.stop();
    expect(registry.size).toBe(0);
    expect(ended).not.toContain(transport.sessionId);
    await client.close();
  });
});

describe('Host and Origin guard (DNS rebinding)', () => {
  const live = useTestServer();

  it('rejects a Host that is not allowed with 403', async () => {
    const response = await send(live.server.url, { method: 'POST', headers: { ...MCP_HEADERS, host: 'evil.example:8091' }, body: INITIALIZE });
    expect(response.status).toBe(403);
    expect(JSON.parse(response.body).error.message).toBe('Forbidden: Host "evil.example:8091" is not allowed');
  });

  it('rejects a browser Origin that is not allowed with 403', async () => {
    const response = await send(live.server.url, { method: 'POST', headers: { ...MCP_HEADERS, origin: 'http://evil.example' }, body: INITIALIZE });
    expect(response.status).toBe(403);
  });

  it('lets an allowed Host and Origin through', async () => {
    const headers = { ...MCP_HEADERS, host: 'localhost:1234', origin: 'http://localhost:3000' };
    const response = await send(live.server.url, { method: 'POST', headers, body: INITIALIZE });
    expect(response.status).toBe(200);
  });

  it('leaves /health open to any Host', async () => {
    const response = await send(`${live.server.baseUrl}/health`, { headers: { host: 'my-container:8091' } });
    expect(response).toEqual({ status: 200, body: 'ok' });
  });
});

describe('stdio transport (child process)', () => {
  let dir: string;

  beforeAll(async () => {
    dir = await realpath(await mkdtemp(join(tmpdir(), 'mcp-fs-stdio-')));
    await writeFile(join(dir, 'hello.txt'), 'hello over stdio\n');
    await writeFile(join(dir, 'config.yaml'), 'roots:\n  - { name: workspace, path: ., allowed_tools: [read_file] }\n');
  });

  afterAll(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  it('serves one session on stdin/stdout with logs kept off stdout', async () => {
    const transport = new StdioClientTransport({
      command: process.execPath,
      args: [join(process.cwd(), 'dist', 'main.js'), '--stdio', '--config', join(dir, 'config.yaml')],
      env: { PATH: process.env.PATH ?? '' },
      stderr: 'pipe',
    });
    let stderr = '';
    transport.stderr?.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    const client = new Client({ name: 'stdio-test', version: '1' });
    await client.connect(transport);
    try {
      expect(client.getServerVersion()?.name).toBe('mcp-filesystem');
      const names = (await client.listTools()).tools.map((tool) => tool.name);
      expect(names).toEqual(expect.arrayContaining(['list_roots', 'read_file']));

      const roots = await callTool(client, 'list_roots', {});
      expect(roots.isError).toBe(false);
      expect(JSON.stringify(roots.structured)).toContain('workspace');
      expect(JSON.stringify(roots.structured)).not.toContain(dir);

      const read = await callTool(client, 'read_file', { root: 'workspace', path: 'hello.txt' });
      expect(read.structured).toMatchObject({ content: 'hello over stdio\n' });
    } finally {
      await client.close();
    }
    // Every log line went to stderr as JSON, including the tool call with the connection's session (stdio-<random>).
    const records = stderr.trim().split('\n').map((line) => JSON.parse(line) as Record<string, unknown>);
    expect(records.find((record) => record.message === 'mcp-filesystem serving on stdio')).toMatchObject({ roots: ['workspace'] });
    expect(records.find((record) => record.message === 'tool call' && record.tool === 'read_file')).toMatchObject({ session: expect.stringMatching(/^stdio-[0-9a-f]{12}$/) });
  });
});
