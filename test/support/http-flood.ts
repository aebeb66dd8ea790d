import { request } from 'node:http';
import { INITIALIZE, MCP_HEADERS } from './raw-mcp.js';

export interface RawAnswer {
  readonly status: number;
  readonly headers: Record<string, string | string[] | undefined>;
  readonly body: string;
  /** Set when the connection failed before an answer arrived (e.g. ECONNRESET). */
  readonly failure?: string;
}

const SESSION_HEADERS = { ...MCP_HEADERS, 'mcp-protocol-version': '2025-06-18' };

/** An initialized session opened with raw requests; returns its id. */
export async function openRawSession(url: string): Promise<string> {
  const opened = await fetch(url, { method: 'POST', headers: MCP_HEADERS, body: INITIALIZE });
  const sessionId = opened.headers.get('mcp-session-id')!;
  await opened.text();
  const initialized = await fetch(url, {
    method: 'POST',
    headers: { ...SESSION_HEADERS, 'mcp-session-id': sessionId },
    body: JSON.stringify({ jsonrpc: '2.0', method: 'notifications/initialized' }),
  });
  await initialized.text();
  return sessionId;
}

/**
 * POSTs a body made of `parts` (so that many requests can share one large middle part) with its
 * Content-Length, and waits for the answer, or the connection's failure.
 */
export function postParts(url: string, sessionId: string, parts: readonly Buffer[]): Promise<RawAnswer> {
  const length = parts.reduce((sum, part) => sum + part.length, 0);
  return new Promise((resolve) => {
    let settled = false;
    const settle = (answer: RawAnswer) => {
      if (settled) return;
      settled = true;
      resolve(answer);
    };
    const req = request(url, { method: 'POST', headers: { ...SESSION_HEADERS, 'mcp-session-id': sessionId, 'content-length': String(length) } }, (res) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => (body += chunk));
      res.on('end', () => settle({ status: res.statusCode ?? 0, headers: res.headers, body }));
      res.on('error', (error: NodeJS.ErrnoException) => settle({ status: res.statusCode ?? 0, headers: res.headers, body, failure: String(error.code ?? error) }));
    });
    req.on('error', (error: NodeJS.ErrnoException) => settle({ status: -1, headers: {}, body: '', failure: String(error.code ?? error) }));
    let index = 0;
    const pump = () => {
      while (index < parts.length) {
        const part = parts[index++];
        if (!req.write(part)) return void req.once('drain', pump);
      }
      req.end();
    };
    pump();
  });
}

/** The JSON-RPC message of a POST's answer, whether it came as JSON or as one SSE event. */
export function rpcMessageOf(body: string): { result?: any; error?: { code: number; message: string; data?: any } } {
  const data = body.split('\n').find((line) => line.startsWith('data: '));
  return JSON.parse(data === undefined ? body : data.slice('data: '.length));
}
