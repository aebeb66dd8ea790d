import type { ServerResponse } from 'node:http';
import type { JSONRPCMessage } from '@modelcontextprotocol/server';
import { serializeMessage } from './message-json.js';

/** As the SDK's transport: a comment frame this often keeps proxies and idle timeouts from cutting a quiet stream. */
const KEEP_ALIVE_MS = 15_000;

/** Writes a JSON-RPC error body with no id, in the SDK transport's words and shape. */
export function writeJsonRpcError(
  res: ServerResponse,
  status: number,
  code: number,
  message: string,
  headers: Record<string, string> = {},
  data?: Record<string, unknown>,
): void {
  const body = JSON.stringify({ jsonrpc: '2.0', error: { code, message, ...(data ? { data } : {}) }, id: null });
  res.writeHead(status, { 'content-type': 'application/json', ...headers });
  res.end(body);
}

/** A text/event-stream response: head written on open, one `event: message` per JSON-RPC message. */
export class SseStream {
  private keepAlive?: NodeJS.Timeout;
  private ended = false;

  constructor(
    private readonly res: ServerResponse,
    sessionId: string | undefined,
  ) {
    const headers: Record<string, string> = {
      'content-type': 'text/event-stream',
      'cache-control': 'no-cache, no-transform',
      connection: 'keep-alive',
      'x-accel-buffering': 'no',
    };
    if (sessionId !== undefined) headers['mcp-session-id'] = sessionId;
    res.writeHead(200, headers);
    // Send the head now: an SSE client waits on it before it reads any event.
    res.flushHeaders();
    this.keepAlive = setInterval(() => this.write(': keepalive\n\n'), KEEP_ALIVE_MS);
    this.keepAlive.unref();
    res.once('close', () => this.stopKeepAlive());
  }

  event(message: JSONRPCMessage): void {
    this.write(`event: message\ndata: ${serializeMessage(message)}\n\n`);
  }

  end(): void {
    if (this.ended) return;
    this.ended = true;
    this.stopKeepAlive();
    this.res.end();
  }

  private write(frame: string): void {
    if (this.ended || this.res.writableEnded || this.res.destroyed) return;
    this.res.write(frame);
  }

  private stopKeepAlive(): void {
    if (this.keepAlive) clearInterval(this.keepAlive);
    this.keepAlive = undefined;
  }
}
