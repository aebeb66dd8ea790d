import { createServer, request, type IncomingMessage, type Server as HttpServer, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { CallToolRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import { NodeStreamableHttpTransport } from '../../../../../src/adapters/inbound/mcp/transports/node-streamable-http-transport.js';

/**
 * The transport alone, under a real SDK Server, on a bare node:http server. Tools: `progress`
 * sends one progress notification before it answers; `late-progress` does so after 20 ms; `slow`
 * answers after 20 ms; `wait` answers only when aborted (never).
 */

const SESSION = 'session-1';
const HEADERS = { 'content-type': 'application/json', accept: 'application/json, text/event-stream' };
const SESSION_HEADERS = { ...HEADERS, 'mcp-session-id': SESSION, 'mcp-protocol-version': '2025-06-18' };
const INITIALIZE = {
  jsonrpc: '2.0',
  id: 1,
  method: 'initialize',
  params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'raw', version: '1' } },
};
const ping = (id: number) => ({ jsonrpc: '2.0', id, method: 'ping' });
const call = (id: number, name: string, progressToken?: string) => ({
  jsonrpc: '2.0',
  id,
  method: 'tools/call',
  params: { name, arguments: {}, ...(progressToken ? { _meta: { progressToken } } : {}) },
});

interface Reply {
  status: number;
  headers: IncomingMessage['headers'];
  body: string;
}

let http: HttpServer;
let url: string;
let transport: NodeStreamableHttpTransport;
let closedSessions: string[];
let initializedSessions: string[];
let waitStarted: Promise<void>;
let markWaitStarted: () => void;

async function serve(options: { initialized?: boolean } = {}): Promise<void> {
  closedSessions = [];
  initializedSessions = [];
  waitStarted = new Promise((resolve) => (markWaitStarted = resolve));
  transport = new NodeStreamableHttpTransport({
    sessionId: SESSION,
    initialized: options.initialized,
    onsessioninitialized: (id) => void initializedSessions.push(id),
    onsessionclosed: (id) => void closedSessions.push(id),
  });
  const server = new Server({ name: 'test', version: '1' }, { capabilities: { tools: {} } });
  server.setRequestHandler(CallToolRequestSchema, async (req, extra) => {
    if (req.params.name === 'slow' || req.params.name === 'late-progress') await new Promise((resolve) => setTimeout(resolve, 20));
    if (req.params.name === 'slow') return { content: [{ type: 'text', text: 'slow' }] };
    if (req.params.name === 'progress' || req.params.name === 'late-progress') {
      await extra.sendNotification({ method: 'notifications/progress', params: { progressToken: req.params._meta!.progressToken!, progress: 1 } });
      return { content: [{ type: 'text', text: 'done' }] };
    }
    markWaitStarted();
    await new Promise((resolve) => extra.signal.addEventListener('abort', resolve));
    return { content: [{ type: 'text', text: 'aborted' }] };
  });
  await server.connect(transport);
}

async function handler(req: IncomingMessage, res: ServerResponse): Promise<void> {
  let text = '';
  for await (const chunk of req) text += String(chunk);
  await transport.handleRequest(req, res, text === '' ? undefined : JSON.parse(text));
}

beforeAll(async () => {
  http = createServer((req, res) => void handler(req, res));
  await new Promise<void>((done) => http.listen(0, '127.0.0.1', done));
  url = `http://127.0.0.1:${(http.address() as AddressInfo).port}/mcp`;
});

afterAll(async () => {
  http.closeAllConnections();
  await new Promise<void>((done) => http.close(() => done()));
});

beforeEach(() => serve());

/** node:http: fetch keeps a response open until the body ends, and cannot send some headers. */
function send(method: string, headers: Record<string, string>, body?: unknown, onResponse?: (res: IncomingMessage) => void): Promise<Reply> {
  return new Promise((resolve, reject) => {
    const req = request(url, { method, headers }, (res) => {
      onResponse?.(res);
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => (text += chunk));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: text }));
    });
    req.on('error', reject);
    req.end(body === undefined ? undefined : JSON.stringify(body));
  });
}

const post = (body: unknown, headers: Record<string, string> = SESSION_HEADERS) => send('POST', headers, body);
const errorOf = (reply: Reply) => (JSON.parse(reply.body) as { error: { code: number; message: string } }).error;

async function initialize(): Promise<Reply> {
  const reply = await post(INITIALIZE, HEADERS);
  expect(reply.status).toBe(200);
  return reply;
}

describe('NodeStreamableHttpTransport: initialize and session id', () => {
  it('answers initialize as JSON with the session id, once', async () => {
    const reply = await initialize();
    expect(reply.headers['content-type']).toBe('application/json');
    expect(reply.headers['mcp-session-id']).toBe(SESSION);
    expect(JSON.parse(reply.body)).toMatchObject({ id: 1, result: { serverInfo: { name: 'test' } } });
    expect(transport.sessionId).toBe(SESSION);
    expect(initializedSessions).toEqual([SESSION]);

    const again = await post(INITIALIZE);
    expect(again.status).toBe(400);
    expect(errorOf(again)).toEqual({ code: -32600, message: 'Invalid Request: Server already initialized' });
  });

  it('refuses anything before initialize, and a batch with two initialize requests', async () => {
    const early = await post(ping(2));
    expect([early.status, errorOf(early).message]).toEqual([400, 'Bad Request: Server not initialized']);
    const twice = await post([INITIALIZE, { ...INITIALIZE, id: 2 }], HEADERS);
    expect([twice.status, errorOf(twice).message]).toEqual([400, 'Invalid Request: Only one initialization request is allowed']);
    expect(transport.sessionId).toBeUndefined();
  });

  it('a session initialized elsewhere (resumed) is served without a handshake', async () => {
    await serve({ initialized: true });
    expect(transport.sessionId).toBe(SESSION);
    const reply = await post(ping(2));
    expect([reply.status, JSON.parse(reply.body)]).toEqual([200, { jsonrpc: '2.0', id: 2, result: {} }]);
  });

  it('checks the session id and the protocol version on every later request', async () => {
    await initialize();
    const { 'mcp-session-id': _omitted, ...withoutSession } = SESSION_HEADERS;
    const missing = await post(ping(2), withoutSession);
    expect([missing.status, errorOf(missing).message]).toEqual([400, 'Bad Request: Mcp-Session-Id header is required']);
    const foreign = await post(ping(2), { ...SESSION_HEADERS, 'mcp-session-id': 'other' });
    expect([foreign.status, errorOf(foreign)]).toEqual([404, { code: -32001, message: 'Session not found' }]);
    const version = await post(ping(2), { ...SESSION_HEADERS, 'mcp-protocol-version': '1999-01-01' });
    expect(version.status).toBe(400);
    expect(errorOf(version).message).toMatch(/^Bad Request: Unsupported protocol version: 1999-01-01 \(supported versions: /);
  });
});

describe('NodeStreamableHttpTransport: POST', () => {
  beforeEach(() => initialize());

  it('refuses a bad Accept (406) and a bad Content-Type (415)', async () => {
    const accept = await post(ping(2), { ...SESSION_HEADERS, accept: 'application/json' });
    expect([accept.status, errorOf(accept)]).toEqual([406, { code: -32000, message: 'Not Acceptable: Client must accept both application/json and text/event-stream' }]);
    const type = await post(ping(2), { ...SESSION_HEADERS, 'content-type': 'text/plain' });
    expect([type.status, errorOf(type).message]).toEqual([415, 'Unsupported Media Type: Content-Type must be application/json']);
    const withCharset = await post(ping(2), { ...SESSION_HEADERS, 'content-type': 'application/json; charset=utf-8' });
    expect(withCharset.status).toBe(200);
  });

  it('refuses a message that is not JSON-RPC, and a batch over 100 messages', async () => {
    const invalid = await post({ hello: 'world' });
    expect([invalid.status, errorOf(invalid)]).toEqual([400, { code: -32700, message: 'Parse error: Invalid JSON-RPC message' }]);
    const batch = await post(Array.from({ length: 101 }, (_, index) => ping(index + 10)));
    expect([batch.status, errorOf(batch).message]).toEqual([400, 'Invalid Request: Batch must not exceed 100 messages']);
  });

  it('answers a POST of notifications only with 202 and no body', async () => {
    const reply = await post({ jsonrpc: '2.0', method: 'notifications/initialized' });
    expect([reply.status, reply.body]).toEqual([202, '']);
  });

  it('answers a request as one JSON body, a batch as an array in request order', async () => {
    const single = await post(ping(2));
    expect(single.headers['content-type']).toBe('application/json');
    expect(single.headers['mcp-session-id']).toBe(SESSION);
    expect(JSON.parse(single.body)).toEqual({ jsonrpc: '2.0', id: 2, result: {} });
    const batch = await post([ping(3), ping(4)]);
    expect(JSON.parse(batch.body)).toEqual([
      { jsonrpc: '2.0', id: 3, result: {} },
      { jsonrpc: '2.0', id: 4, result: {} },
    ]);
    // The slow request first: its answer comes last, but the array keeps the order of the requests.
    const reordered = await post([call(5, 'slow'), ping(6)]);
    expect(JSON.parse(reordered.body)).toEqual([
      { jsonrpc: '2.0', id: 5, result: { content: [{ type: 'text', text: 'slow' }] } },
      { jsonrpc: '2.0', id: 6, result: {} },
    ]);
  });

  it('switches to SSE when a notification is sent for the request: the notification, then the answer', async () => {
    const reply = await post(call(5, 'progress', 'token-5'));
    expect(reply.headers['content-type']).toBe('text/event-stream');
    expect(reply.headers['mcp-session-id']).toBe(SESSION);
    const events = reply.body
      .split('\n\n')
      .filter(Boolean)
      .map((event) => {
        expect(event.startsWith('event: message\ndata: ')).toBe(true);
        return JSON.parse(event.slice('event: message\ndata: '.length)) as Record<string, unknown>;
      });
    expect(events).toEqual([
      { jsonrpc: '2.0', method: 'notifications/progress', params: { progressToken: 'token-5', progress: 1 } },
      { jsonrpc: '2.0', id: 5, result: { content: [{ type: 'text', text: 'done' }] } },
    ]);
  });

  it('switching to SSE, the stream carries the answers held so far, then the rest', async () => {
    const reply = await post([ping(8), call(9, 'late-progress', 'token-9')]);
    expect(reply.headers['content-type']).toBe('text/event-stream');
    const events = reply.body
      .split('\n\n')
      .filter(Boolean)
      .map((event) => JSON.parse(event.slice('event: message\ndata: '.length)) as Record<string, unknown>);
    expect(events).toEqual([
      { jsonrpc: '2.0', id: 8, result: {} },
      { jsonrpc: '2.0', method: 'notifications/progress', params: { progressToken: 'token-9', progress: 1 } },
      { jsonrpc: '2.0', id: 9, result: { content: [{ type: 'text', text: 'done' }] } },
    ]);
  });

  it('ends the POST response of a request the client cancels', async () => {
    const pending = post(call(6, 'wait'));
    await waitStarted;
    const cancel = await post({ jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: 6, reason: 'test' } });
    expect(cancel.status).toBe(202);
    const reply = await pending;
    expect([reply.status, reply.headers['content-type'], reply.body]).toEqual([200, 'text/event-stream', '']);
  });
});

describe('NodeStreamableHttpTransport: GET, DELETE, other methods', () => {
  beforeEach(() => initialize());

  it('GET opens one standalone event stream; a second is a 409; without text/event-stream a 406', async () => {
    const refused = await send('GET', { ...SESSION_HEADERS, accept: 'application/json' });
    expect([refused.status, errorOf(refused).message]).toEqual([406, 'Not Acceptable: Client must accept text/event-stream']);

    let opened!: (res: IncomingMessage) => void;
    const first = new Promise<IncomingMessage>((resolve) => (opened = resolve));
    const stream = send('GET', SESSION_HEADERS, undefined, opened);
    const res = await first;
    expect([res.statusCode, res.headers['content-type'], res.headers['mcp-session-id']]).toEqual([200, 'text/event-stream', SESSION]);
    const second = await send('GET', SESSION_HEADERS);
    expect([second.status, errorOf(second).message]).toEqual([409, 'Conflict: Only one SSE stream is allowed per session']);

    await transport.send({ jsonrpc: '2.0', method: 'notifications/tools/list_changed' });
    await transport.close();
    expect((await stream).body).toBe('event: message\ndata: {"jsonrpc":"2.0","method":"notifications/tools/list_changed"}\n\n');
  });

  it('a client that drops its GET stream may open another', async () => {
    const first = request(url, { method: 'GET', headers: SESSION_HEADERS });
    const opened = new Promise<IncomingMessage>((resolve) => first.on('response', resolve));
    first.on('error', () => undefined);
    first.end();
    const res = await opened;
    expect(res.statusCode).toBe(200);
    const gone = new Promise((resolve) => res.once('close', resolve));
    first.destroy();
    await gone;
    // The server sees the close a moment later; until then a new stream would be the second.
    let second: IncomingMessage | undefined;
    for (let attempt = 0; attempt < 50 && second?.statusCode !== 200; attempt += 1) {
      await new Promise((resolve) => setTimeout(resolve, 10));
      const next = request(url, { method: 'GET', headers: SESSION_HEADERS });
      next.on('error', () => undefined);
      second = await new Promise<IncomingMessage>((resolve) => next.on('response', resolve).end());
      if (second.statusCode !== 200) second.resume();
      else next.destroy();
    }
    expect(second?.statusCode).toBe(200);
  });

  it('DELETE checks the session id and the protocol version like every other request, and then the session lives on', async () => {
    const { 'mcp-session-id': _omitted, ...withoutSession } = SESSION_HEADERS;
    const missing = await send('DELETE', withoutSession);
    expect([missing.status, errorOf(missing).message]).toEqual([400, 'Bad Request: Mcp-Session-Id header is required']);
    const version = await send('DELETE', { ...SESSION_HEADERS, 'mcp-protocol-version': '1999-01-01' });
    expect(version.status).toBe(400);
    expect(closedSessions).toEqual([]);
    expect((await post(ping(2))).status).toBe(200);
  });

  it('DELETE tells the session owner, answers 200 and closes the transport: the session is gone', async () => {
    let closed = false;
    const onclose = transport.onclose;
    transport.onclose = () => {
      closed = true;
      onclose?.();
    };
    const reply = await send('DELETE', SESSION_HEADERS);
    expect(reply.status).toBe(200);
    expect(closedSessions).toEqual([SESSION]);
    expect(closed).toBe(true);
    const after = await post(ping(2));
    expect([after.status, errorOf(after).message]).toEqual([404, 'Session not found']);
  });

  it('answers other methods with 405 and the allowed ones', async () => {
    const reply = await send('PUT', SESSION_HEADERS, ping(2));
    expect([reply.status, reply.headers.allow, errorOf(reply).message]).toEqual([405, 'GET, POST, DELETE', 'Method not allowed.']);
  });
});
