import { createHash } from 'node:crypto';

export const MCP_HEADERS = { 'content-type': 'application/json', accept: 'application/json, text/event-stream' };

export const INITIALIZE = JSON.stringify({
  jsonrpc: '2.0',
  id: 1,
  method: 'initialize',
  params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'raw', version: '1' } },
});

export const PING = JSON.stringify({ jsonrpc: '2.0', id: 2, method: 'ping' });

export function sha256Hex(token: string): string {
  return createHash('sha256').update(token, 'utf8').digest('hex');
}

/** A raw POST to /mcp (initialize unless another body is given), for status and header checks. */
export async function postMcp(url: string, options: { bearer?: string; sessionId?: string; body?: string } = {}): Promise<Response> {
  const headers: Record<string, string> = { ...MCP_HEADERS };
  if (options.bearer !== undefined) headers.authorization = `Bearer ${options.bearer}`;
  if (options.sessionId !== undefined) headers['mcp-session-id'] = options.sessionId;
  return fetch(url, { method: 'POST', headers, body: options.body ?? INITIALIZE });
}
