#!/usr/bin/env node
// The protocol floor on the SDK we use (v2, @modelcontextprotocol/server + node): one trivial tool
// that reads a small file. A 2025-era client gets one session on the SDK's Node Streamable HTTP
// transport; a 2026-07-28 request (the `_meta` protocol-version envelope) goes to the SDK's
// per-request handler (createMcpHandler, a fresh Server per request, via toNodeHandler), as ours
// does. What any server built on the v2 SDK pays per call before doing any work of its own.
// Usage: floor-server.mjs PORT (floor-server-v1.mjs is the same floor on the v1 SDK).
import { randomUUID } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { createServer } from 'node:http';
import { createMcpHandler, isInitializeRequest, PROTOCOL_VERSION_META_KEY, Server } from '@modelcontextprotocol/server';
import { NodeStreamableHTTPServerTransport, toNodeHandler } from '@modelcontextprotocol/node';

const port = Number(process.argv[2]);
const transports = new Map();

function newServer() {
  const server = new Server({ name: 'floor', version: '1.0.0' }, { capabilities: { tools: {} } });
  server.setRequestHandler('tools/list', () => ({
    tools: [{ name: 'read_file', inputSchema: { type: 'object', properties: { path: { type: 'string' } } } }],
  }));
  server.setRequestHandler('tools/call', async (request) => {
    const text = await readFile(String(request.params.arguments?.path ?? ''), 'utf8');
    return { content: [{ type: 'text', text }] };
  });
  return server;
}

const modern = toNodeHandler(createMcpHandler(() => newServer(), { legacy: 'reject' }));

async function body(req) {
  const chunks = [];
  for await (const chunk of req) chunks.push(chunk);
  return chunks.length ? JSON.parse(Buffer.concat(chunks).toString('utf8')) : undefined;
}

createServer(async (req, res) => {
  if (req.url === '/health') return res.end('ok');
  const parsed = req.method === 'POST' ? await body(req) : undefined;
  const meta = parsed?.params?._meta;
  if (meta && typeof meta === 'object' && PROTOCOL_VERSION_META_KEY in meta) return modern(req, res, parsed);
  const id = req.headers['mcp-session-id'];
  let transport = id ? transports.get(id) : undefined;
  if (!transport && parsed && isInitializeRequest(parsed)) {
    transport = new NodeStreamableHTTPServerTransport({
      sessionIdGenerator: () => randomUUID(),
      onsessioninitialized: (sessionId) => transports.set(sessionId, transport),
    });
    transport.onclose = () => transports.delete(transport.sessionId);
    await newServer().connect(transport);
  }
  if (!transport) {
    res.writeHead(404).end();
    return;
  }
  await transport.handleRequest(req, res, parsed);
}).listen(port, '127.0.0.1');
