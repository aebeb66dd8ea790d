#!/usr/bin/env node
// The v1 protocol floor (@modelcontextprotocol/sdk 1.x, before our move to v2), kept to compare: the SDK's Server on its own Streamable HTTP transport, one session per
// client, one trivial tool that reads a small file. What any server built on the SDK's HTTP
// transport pays per call, before doing any work of its own. Usage: floor-server.mjs PORT FILE
import { randomUUID } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { createServer } from 'node:http';
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { CallToolRequestSchema, ListToolsRequestSchema, isInitializeRequest } from '@modelcontextprotocol/sdk/types.js';

const port = Number(process.argv[2]);
const transports = new Map();

function newServer() {
  const server = new Server({ name: 'floor', version: '1.0.0' }, { capabilities: { tools: {} } });
  server.setRequestHandler(ListToolsRequestSchema, () => ({
    tools: [{ name: 'read_file', inputSchema: { type: 'object', properties: { path: { type: 'string' } } } }],
  }));
  server.setRequestHandler(CallToolRequestSchema, async (request) => {
    const text = await readFile(String(request.params.arguments?.path ?? ''), 'utf8');
    return { content: [{ type: 'text', text }] };
  });
  return server;
}

async function body(req) {
  const chunks = [];
  for await (const chunk of req) chunks.push(chunk);
  return chunks.length ? JSON.parse(Buffer.concat(chunks).toString('utf8')) : undefined;
}

createServer(async (req, res) => {
  if (req.url === '/health') return res.end('ok');
  const parsed = req.method === 'POST' ? await body(req) : undefined;
  const id = req.headers['mcp-session-id'];
  let transport = id ? transports.get(id) : undefined;
  if (!transport && parsed && isInitializeRequest(parsed)) {
    transport = new StreamableHTTPServerTransport({
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
