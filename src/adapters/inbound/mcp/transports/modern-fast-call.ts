import type { IncomingMessage, ServerResponse } from 'node:http';
import {
  CLIENT_CAPABILITIES_META_KEY,
  classifyInboundRequest,
  type CallToolRequest,
  isJsonContentType,
  LOG_LEVEL_META_KEY,
  SERVER_INFO_META_KEY,
} from '@modelcontextprotocol/server';
import { SERVER_INFO } from '../protocol/server-factory.js';

/** The one revision the SDK's modern entry serves (SUPPORTED_MODERN_PROTOCOL_VERSIONS); a newer one goes the SDK's way. */
const SERVED_REVISION = '2026-07-28';
/** What a plain tools/call carries; anything else (task, input responses, request state) goes the SDK's way. */
const PLAIN_PARAMS = new Set(['name', 'arguments', '_meta']);

/** A 2026-07-28 tools/call the fast path may answer: its id and params, as the SDK would hand them to the handler. */
export interface FastCall {
  readonly id: string | number;
  readonly params: CallToolRequest['params'];
  /** The envelope declares the roots capability: a call may have to ask for them (input-required), which the SDK does. */
  readonly declaresRoots: boolean;
}

const isPlainObject = (value: unknown): value is Record<string, unknown> => value !== null && typeof value === 'object' && !Array.isArray(value);

function header(req: IncomingMessage, name: string): string | undefined {
  const value = req.headers[name];
  return typeof value === 'string' ? value.trim() : undefined;
}

/**
 * Whether a modern POST is a plain tools/call that the SDK would accept and answer with one JSON
 * result: the SDK's own classification (envelope, header cross-checks) says modern and served, the
 * three standard headers are present and name exactly what the body does, and nothing in the
 * request could make the answer a stream (a progress token, a log level) or a multi-round trip.
 * Anything else returns undefined and is left to the SDK, which answers it (errors included) as before.
 */
export function fastCallOf(body: unknown, req: IncomingMessage): FastCall | undefined {
  if (!isPlainObject(body) || body.method !== 'tools/call' || body.jsonrpc !== '2.0') return undefined;
  const { id, params } = body;
  if ((typeof id !== 'string' && typeof id !== 'number') || !isPlainObject(params)) return undefined;
  if (typeof params.name !== 'string' || (params.arguments !== undefined && !isPlainObject(params.arguments))) return undefined;
  if (Object.keys(params).some((key) => !PLAIN_PARAMS.has(key))) return undefined;
  const meta = params._meta;
  if (!isPlainObject(meta) || 'progressToken' in meta || LOG_LEVEL_META_KEY in meta) return undefined;
  if (!isJsonContentType(req.headers['content-type'] ?? null)) return undefined;
  const protocolVersionHeader = header(req, 'mcp-protocol-version');
  const mcpMethodHeader = header(req, 'mcp-method');
  const mcpNameHeader = header(req, 'mcp-name');
  if (protocolVersionHeader !== SERVED_REVISION || mcpMethodHeader !== 'tools/call' || mcpNameHeader !== params.name) return undefined;
  const outcome = classifyInboundRequest({ httpMethod: 'POST', protocolVersionHeader, mcpMethodHeader, mcpNameHeader, body });
  if (outcome.kind !== 'modern' || outcome.classification.revision !== SERVED_REVISION) return undefined;
  const capabilities = meta[CLIENT_CAPABILITIES_META_KEY];
  return { id, params: params as CallToolRequest['params'], declaresRoots: isPlainObject(capabilities) && capabilities.roots !== undefined };
}

/**
 * The result as the SDK's 2026-07-28 encoder sends it: `resultType` stamped, the server's identity
 * in `_meta` (tools/call results carry no cache fields). The e2e test compares both paths' answers.
 */
function encodeResult(result: Record<string, unknown>): Record<string, unknown> {
  const stamped = result.resultType === undefined ? { ...result, resultType: 'complete' } : result;
  const meta = stamped._meta;
  if (meta === undefined) return { ...stamped, _meta: { [SERVER_INFO_META_KEY]: SERVER_INFO } };
  if (!isPlainObject(meta) || meta[SERVER_INFO_META_KEY] !== undefined) return stamped;
  return { ...stamped, _meta: { ...meta, [SERVER_INFO_META_KEY]: SERVER_INFO } };
}

/** Writes the call's answer as the SDK's per-request transport does for a JSON answer (200, application/json). */
export async function answerFastCall(res: ServerResponse, id: string | number, outcome: Promise<Record<string, unknown>>): Promise<void> {
  let message: Record<string, unknown>;
  try {
    message = { result: encodeResult(await outcome), jsonrpc: '2.0', id };
  } catch (error) {
    // As the SDK's protocol layer answers a handler that throws: its code when it has one, else -32603.
    const { code, message: text, data } = error as { code?: unknown; message?: string; data?: unknown };
    message = { jsonrpc: '2.0', id, error: { code: Number.isSafeInteger(code) ? code : -32603, message: text ?? 'Internal error', ...(data !== undefined && { data }) } };
  }
  if (res.destroyed) return;
  const bytes = Buffer.from(JSON.stringify(message));
  res.writeHead(200, { 'content-type': 'application/json', 'content-length': String(bytes.length) });
  res.end(bytes);
}
