import { createServer, request, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import Koa from 'koa';
import { McpHttpEndpoint } from '../../../../../src/adapters/inbound/mcp/transports/http-transport.js';
import { buildContainer } from '../../../../../src/composition/container.js';
import { defaultSessionLimits, defaultSettings } from '../../../../../src/config/schema.js';
import { RecordingLogger } from '../../../../support/recording-logger.js';

/**
 * The endpoint behind a stand-in for the authentication middleware: it puts the principal named
 * by a test header on ctx.state.principal, as the bearer guard puts the authenticated principal.
 */

const HEADERS = { 'content-type': 'application/json', accept: 'application/json, text/event-stream', 'mcp-protocol-version': '2025-06-18' };
const INITIALIZE = JSON.stringify({
  jsonrpc: '2.0',
  id: 1,
  method: 'initialize',
  params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'raw', version: '1' } },
});
const PING = JSON.stringify({ jsonrpc: '2.0', id: 2, method: 'ping' });

let server: Server;
let url: string;

beforeAll(async () => {
  const container = buildContainer(
    {
      host: '127.0.0.1',
      port: 0,
      allowedHosts: ['127.0.0.1'],
      logLevel: 'error',
      // The request limit is 6 x max_file_size + 1 MiB: 19 MiB here.
      settings: { ...defaultSettings('workspace'), maxFileSize: 3 * 1024 * 1024 },
      sessions: { ...defaultSessionLimits(), maxPerPrincipal: 2 },
      sessionStoreUrl: '',
      roots: [{ name: 'workspace', path: '/nonexistent-root-never-touched', allowedTools: ['*'] }],
    },
    { logger: new RecordingLogger() },
  );
  const app = new Koa();
  app.use(async (ctx, next) => {
    const principal = ctx.get('x-test-principal');
    if (principal !== '') ctx.state.principal = { name: principal, readOnly: false };
    await next();
  });
  app.use(container.get(McpHttpEndpoint).router().routes());
  server = createServer(app.callback());
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/mcp`;
});

afterAll(async () => {
  server.closeAllConnections();
  await new Promise<void>((done) => server.close(() => done()));
});

async function open(principal?: string): Promise<Response> {
  const response = await fetch(url, { method: 'POST', headers: { ...HEADERS, ...(principal ? { 'x-test-principal': principal } : {}) }, body: INITIALIZE });
  await response.clone().text();
  return response;
}

const ping = (sessionId: string, principal?: string) =>
  fetch(url, { method: 'POST', headers: { ...HEADERS, 'mcp-session-id': sessionId, ...(principal ? { 'x-test-principal': principal } : {}) }, body: PING });

describe('McpHttpEndpoint: a session belongs to the principal that opened it', () => {
  it("another principal's request with the same session id gets 404, the owner's gets through", async () => {
    const id = (await open('alice')).headers.get('mcp-session-id')!;
    expect((await ping(id, 'bob')).status).toBe(404);
    expect((await ping(id)).status).toBe(404);
    expect((await ping(id, 'alice')).status).toBe(200);
    const hijack = await fetch(url, { method: 'DELETE', headers: { 'mcp-session-id': id, 'x-test-principal': 'bob' } });
    expect(hijack.status).toBe(404);
    expect((await ping(id, 'alice')).status).toBe(200);
  });

  it("without a principal on the request (auth.mode none) every session is the local operator's", async () => {
    const id = (await open()).headers.get('mcp-session-id')!;
    expect((await ping(id)).status).toBe(200);
    expect((await ping(id, 'alice')).status).toBe(404);
  });

  it('max_per_principal counts each principal apart', async () => {
    expect((await open('carol')).status).toBe(200);
    expect((await open('carol')).status).toBe(200);
    expect((await open('carol')).status).toBe(503);
    expect((await open('dave')).status).toBe(200);
  });
});

describe('McpHttpEndpoint: the request body', () => {
  /** A POST whose body comes in `chunks` pieces without a Content-Length (chunked), as a streaming client sends it. */
  function postChunked(chunks: readonly string[]): Promise<{ status: number; body: string }> {
    return new Promise((resolve, reject) => {
      const req = request(url, { method: 'POST', headers: HEADERS }, (res) => {
        let body = '';
        res.setEncoding('utf8');
        res.on('data', (chunk: string) => (body += chunk));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
      });
      // The server may answer 413 and close before the whole body is sent.
      req.on('error', (error: NodeJS.ErrnoException) => (error.code === 'EPIPE' || error.code === 'ECONNRESET' ? undefined : reject(error)));
      for (const chunk of chunks) req.write(chunk);
      req.end();
    });
  }

  it('reads a body that arrives in several chunks', async () => {
    const reply = await postChunked([INITIALIZE.slice(0, 20), INITIALIZE.slice(20, 60), INITIALIZE.slice(60)]);
    expect(reply.status).toBe(200);
    expect(JSON.parse(reply.body)).toMatchObject({ id: 1, result: { serverInfo: { name: 'mcp-filesystem' } } });
  });

  it('refuses a chunked body that grows past the limit (19 MiB) without a Content-Length (413), and a body that is not JSON (400)', async () => {
    const megabyte = 'x'.repeat(1024 * 1024);
    const tooLarge = await postChunked(Array.from({ length: 21 }, () => megabyte));
    expect(tooLarge.status).toBe(413);
    expect(JSON.parse(tooLarge.body).error.code).toBe(-32600);
    const notJson = await postChunked(['{"jsonrpc":', ' "2.0"']);
    expect([notJson.status, JSON.parse(notJson.body).error.code]).toEqual([400, -32700]);
  });
});
