#!/usr/bin/env node
// A lean Streamable HTTP client for load: node:http with a keep-alive agent, hand-written
// JSON-RPC, no SDK client (which costs ~1.4 ms of CPU a call and, on 2 cores, limits what a
// load test can show of the server). Each session initializes, then makes its calls one after
// another; every answer is checked. Not the bench table's client: the table stays on the SDK's.
// Usage: raw-http-load.mjs URL [sessions=50] [calls=40] [root=bench] [path=small-4k.txt]
import { Agent, request } from 'node:http';
import { performance } from 'node:perf_hooks';
import { pathToFileURL } from 'node:url';
import { quantile } from './stats.mjs';

const PROTOCOL_VERSION = '2025-06-18';

function post(agent, url, body, sessionId) {
  const headers = { 'content-type': 'application/json', accept: 'application/json, text/event-stream', 'mcp-protocol-version': PROTOCOL_VERSION };
  if (sessionId) headers['mcp-session-id'] = sessionId;
  return new Promise((resolve, reject) => {
    const req = request(url, { method: 'POST', agent, headers }, (res) => {
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (chunk) => (text += chunk));
      res.on('end', () => resolve({ status: res.statusCode, sessionId: res.headers['mcp-session-id'], contentType: res.headers['content-type'], text }));
    });
    req.on('error', reject);
    req.end(JSON.stringify(body));
  });
}

/** The JSON-RPC answer of a POST, whether it came as JSON or as the last SSE event. */
function answerOf(reply) {
  if (reply.status !== 200) throw new Error(`HTTP ${reply.status}: ${reply.text}`);
  if (reply.contentType?.startsWith('application/json')) return JSON.parse(reply.text);
  const events = reply.text.split('\n\n').filter((event) => event.startsWith('event: message\ndata: '));
  return JSON.parse(events.at(-1).slice('event: message\ndata: '.length));
}

async function openSession(agent, url) {
  const init = await post(agent, url, {
    jsonrpc: '2.0',
    id: 0,
    method: 'initialize',
    params: { protocolVersion: PROTOCOL_VERSION, capabilities: {}, clientInfo: { name: 'raw-http-load', version: '1' } },
  });
  answerOf(init);
  await post(agent, url, { jsonrpc: '2.0', method: 'notifications/initialized' }, init.sessionId);
  return init.sessionId;
}

/** `sessions` sessions make `calls` read_file calls each; returns calls/s and latency quantiles (ms). */
export async function rawHttpLoad({ url, sessions = 50, calls = 40, root = 'bench', path = 'small-4k.txt', expected }) {
  const agent = new Agent({ keepAlive: true, maxSockets: sessions });
  try {
    const ids = await Promise.all(Array.from({ length: sessions }, () => openSession(agent, url)));
    const latencies = [];
    const started = performance.now();
    await Promise.all(
      ids.map(async (sessionId) => {
        for (let i = 1; i <= calls; i += 1) {
          const begun = performance.now();
          const reply = await post(agent, url, { jsonrpc: '2.0', id: i, method: 'tools/call', params: { name: 'read_file', arguments: { root, path } } }, sessionId);
          const answer = answerOf(reply);
          latencies.push(performance.now() - begun);
          if (answer.error || answer.result?.isError) throw new Error(`read_file failed: ${JSON.stringify(answer.error ?? answer.result.content)}`);
          if (expected !== undefined && answer.result.structuredContent?.content !== expected) throw new Error('read_file answered other content');
        }
      }),
    );
    const seconds = (performance.now() - started) / 1000;
    await Promise.all(ids.map((sessionId) => new Promise((resolve) => request(url, { method: 'DELETE', agent, headers: { 'mcp-session-id': sessionId } }, (res) => res.resume().on('end', resolve)).end())));
    return { rate: (sessions * calls) / seconds, p50: quantile(latencies, 0.5), p99: quantile(latencies, 0.99) };
  } finally {
    agent.destroy();
  }
}

if (import.meta.url === pathToFileURL(process.argv[1]).href) {
  const [url, sessions, calls, root, path] = process.argv.slice(2);
  if (!url) {
    console.error('usage: raw-http-load.mjs URL [sessions] [calls] [root] [path]');
    process.exit(2);
  }
  const result = await rawHttpLoad({ url, sessions: Number(sessions ?? 50), calls: Number(calls ?? 40), root, path });
  console.log(`${result.rate.toFixed(0)} calls/s, p50 ${result.p50.toFixed(2)} ms, p99 ${result.p99.toFixed(2)} ms`);
}
