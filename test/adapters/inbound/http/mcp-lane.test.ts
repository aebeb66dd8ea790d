import { createHash } from 'node:crypto';
import { createServer, request, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { HttpServer } from '../../../../src/adapters/inbound/http/http-app.js';
import { buildContainer } from '../../../../src/composition/container.js';
import { RecordingLogger } from '../../../support/recording-logger.js';
import { compositionConfig } from '../../../composition/app-config.js';
import { INITIALIZE, MCP_HEADERS, PING } from '../../../support/raw-mcp.js';

const TOKEN = 'lane-test-token-0123456789';
const OTHER_TOKEN = 'lane-test-token-of-another-principal';
const VERSION = { 'mcp-protocol-version': '2025-06-18' };

/**
 * The same HttpServer answered two ways: `koa` is its Koa app alone (what every request took before
 * the lean lane), `lane` is what `start()` serves (the lane for POST, GET and DELETE on /mcp, Koa for
 * the rest). Every request below must get the same answer from both.
 */
describe('HttpServer: the lean lane for /mcp answers as the Koa app does', () => {
  const servers: Server[] = [];
  let koa: string;
  let lane: string;
  let takes: (req: IncomingMessage, res: ServerResponse) => boolean;

  const listen = async (handler: (req: IncomingMessage, res: ServerResponse) => void): Promise<string> => {
    const server = createServer(handler);
    servers.push(server);
    await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
    return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  };

  beforeAll(async () => {
    const config = compositionConfig({
      allowedHosts: ['127.0.0.1'],
      auth: {
        mode: 'tokens',
        tokens: [
          { name: 'agent', sha256: createHash('sha256').update(TOKEN).digest('hex'), readOnly: false },
          { name: 'other', sha256: createHash('sha256').update(OTHER_TOKEN).digest('hex'), readOnly: false },
        ],
      },
    });
    const http = buildContainer(config, { logger: new RecordingLogger() }).get(HttpServer);
    const app = http.app().callback();
    takes = http.mcpLane();
    koa = await listen((req, res) => void app(req, res));
    lane = await listen((req, res) => {
      if (!takes(req, res)) void app(req, res);
    });
  });

  afterAll(async () => {
    for (const server of servers) {
      server.closeAllConnections();
      await new Promise<void>((done) => server.close(() => done()));
    }
  });

  /** What a client sees of an answer: status, the headers that carry meaning here, and the JSON-RPC error if any. (node:http, which lets a test set Host.) */
  const answer = (base: string, path: string, init: { method: string; headers?: Record<string, string>; body?: string }) =>
    new Promise<Record<string, unknown>>((resolve, reject) => {
      const sent = request(`${base}${path}`, { method: init.method, headers: init.headers }, (response) => {
        let text = '';
        response.setEncoding('utf8');
        response.on('data', (chunk: string) => (text += chunk));
        response.on('end', () => {
          let error: unknown;
          try {
            error = (JSON.parse(text) as { error?: unknown }).error;
          } catch {
            error = text;
          }
          resolve({
            status: response.statusCode,
            challenge: response.headers['www-authenticate'],
            retryAfter: response.headers['retry-after'],
            allow: response.headers.allow,
            session: response.headers['mcp-session-id'] === undefined ? 'none' : 'some',
            error,
          });
        });
      });
      sent.on('error', reject);
      sent.end(init.body);
    });
  const both = async (path: string, init: { method: string; headers?: Record<string, string>; body?: string }) => {
    const viaLane = await answer(lane, path, init);
    expect(viaLane).toEqual(await answer(koa, path, init));
    return viaLane;
  };
  const bearer = { authorization: `Bearer ${TOKEN}` };

  it('refuses a foreign Host or Origin, a missing or wrong token, before anything else', async () => {
    expect((await both('/mcp', { method: 'POST', headers: { ...MCP_HEADERS, ...bearer, host: 'evil.example' }, body: INITIALIZE })).status).toBe(403);
    expect((await both('/mcp', { method: 'POST', headers: { ...MCP_HEADERS, ...bearer, origin: 'http://evil.example' }, body: INITIALIZE })).status).toBe(403);
    expect((await both('/mcp?x=1', { method: 'GET', headers: { origin: 'http://evil.example' } })).status).toBe(403);
    const missing = await both('/mcp', { method: 'POST', headers: MCP_HEADERS, body: INITIALIZE });
    expect(missing.status).toBe(401);
    expect(String(missing.challenge)).toContain('Bearer realm="mcp-filesystem"');
    const wrong = await both('/mcp', { method: 'DELETE', headers: { authorization: 'Bearer not-the-token' } });
    expect(wrong.status).toBe(401);
    expect(String(wrong.challenge)).toContain('error="invalid_token"');
  });

  it('serves a session with a valid token: initialize, calls, the event stream check, the end', async () => {
    const opened = await both('/mcp', { method: 'POST', headers: { ...MCP_HEADERS, ...bearer }, body: INITIALIZE });
    expect(opened).toMatchObject({ status: 200, session: 'some' });
    // Each server has its own session; the same requests on each get the same answers.
    const sessions: Record<string, string> = {};
    for (const base of [koa, lane]) {
      const response = await fetch(`${base}/mcp`, { method: 'POST', headers: { ...MCP_HEADERS, ...bearer }, body: INITIALIZE });
      sessions[base] = response.headers.get('mcp-session-id')!;
      await response.text();
    }
    const inSession = async (init: (session: string) => { method: string; headers?: Record<string, string>; body?: string }) => {
      const viaLane = await answer(lane, '/mcp', init(sessions[lane]));
      expect(viaLane).toEqual(await answer(koa, '/mcp', init(sessions[koa])));
      return viaLane;
    };
    expect((await inSession((id) => ({ method: 'POST', headers: { ...MCP_HEADERS, ...VERSION, ...bearer, 'mcp-session-id': id }, body: PING }))).status).toBe(200);
    // The session is the principal's the token named: another principal's valid token does not reach it.
    const other = { authorization: `Bearer ${OTHER_TOKEN}` };
    expect((await inSession((id) => ({ method: 'POST', headers: { ...MCP_HEADERS, ...VERSION, ...other, 'mcp-session-id': id }, body: PING }))).status).toBe(404);
    expect((await inSession((id) => ({ method: 'GET', headers: { ...VERSION, ...bearer, 'mcp-session-id': id, accept: 'application/json' } }))).status).toBe(406);
    expect((await inSession((id) => ({ method: 'DELETE', headers: { ...VERSION, ...bearer, 'mcp-session-id': id } }))).status).toBe(200);
    expect((await inSession((id) => ({ method: 'POST', headers: { ...MCP_HEADERS, ...VERSION, ...bearer, 'mcp-session-id': id }, body: PING }))).status).toBe(404);
  });

  it('answers bad requests alike: no session id, an unknown one, a body that is not JSON', async () => {
    expect((await both('/mcp', { method: 'POST', headers: { ...MCP_HEADERS, ...bearer }, body: PING })).status).toBe(400);
    expect((await both('/mcp', { method: 'GET', headers: { ...bearer, accept: 'text/event-stream' } })).status).toBe(400);
    expect((await both('/mcp', { method: 'POST', headers: { ...MCP_HEADERS, ...bearer, 'mcp-session-id': 'no-such-session' }, body: PING })).status).toBe(404);
    expect((await both('/mcp', { method: 'POST', headers: { ...MCP_HEADERS, ...bearer }, body: '{"jsonrpc": ' })).status).toBe(400);
  });

  it('takes only POST, GET and DELETE on /mcp itself; the rest stays with Koa', async () => {
    expect((await both('/mcp', { method: 'PUT', headers: { ...MCP_HEADERS, ...bearer }, body: INITIALIZE })).status).toBe(405);
    expect((await both('/health', { method: 'GET' })).status).toBe(200);
    // A request the lane takes is answered by it (here a 403 into a stand-in response); one it leaves is handed on untouched.
    const taken = (method: string, url: string) => {
      const res = { headersSent: true, writeHead: () => res, end: () => undefined } as unknown as ServerResponse;
      const req = { method, url, headers: { host: 'evil.example' }, socket: {} } as unknown as IncomingMessage;
      return takes(req, res);
    };
    expect([taken('POST', '/mcp'), taken('GET', '/mcp?x=1'), taken('DELETE', '/mcp')]).toEqual([true, true, true]);
    expect([taken('PUT', '/mcp'), taken('OPTIONS', '/mcp'), taken('HEAD', '/mcp'), taken('POST', '/mcp/'), taken('GET', '/health'), taken('GET', '/metrics')]).toEqual([
      false,
      false,
      false,
      false,
      false,
      false,
    ]);
  });
});
