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
  /** The envelope's elicitation capability: a writing call may ask its person in form (a round), which the SDK does. */
  readonly elicitation: unknown;
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
  const call = plainToolCall(body);
  const meta = call?.params._meta;
  if (!call || !isPlainObject(meta)) return undefined;
  if (!isJsonContentType(req.headers['content-type'] ?? null)) return undefined;
  const protocolVersionHeader = header(req, 'mcp-protocol-version');
  const mcpMethodHeader = header(req, 'mcp-method');
  const mcpNameHeader = header(req, 'mcp-name');
  if (protocolVersionHeader !== SERVED_REVISION || mcpMethodHeader !== 'tools/call' || mcpNameHeader !== call.params.name) return undefined;
  const outcome = classifyInboundRequest({ httpMethod: 'POST', protocolVersionHeader, mcpMethodHeader, mcpNameHeader, body });
  if (outcome.kind !== 'modern' || outcome.classification.revision !== SERVED_REVISION) return undefined;
  const capabilities = meta[CLIENT_CAPABILITIES_META_KEY];
  if (!isPlainObject(capabilities)) return { ...call, declaresRoots: false, elicitation: undefined };
  return { ...call, declaresRoots: capabilities.roots !== undefined, elicitation: capabilities.elicitation };
}

/**
 * A JSON-RPC tools/call request with nothing but a tool name, its arguments and a `_meta` that asks
 * for neither progress nor log messages: what a fast path may answer with one plain result. Anything
 * else (a task, input responses, request state, malformed params) is left to the SDK.
 */
export function plainToolCall(message: unknown): Omit<FastCall, 'declaresRoots' | 'elicitation'> | undefined {
  if (!isPlainObject(message) || message.method !== 'tools/call' || message.jsonrpc !== '2.0') return undefined;
  const { id, params } = message;
  if ((typeof id !== 'string' && typeof id !== 'number') || !isPlainObject(params)) return undefined;
  if (typeof params.name !== 'string' || (params.arguments !== undefined && !isPlainObject(params.arguments))) return undefined;
  if (Object.keys(params).some((key) => !PLAIN_PARAMS.has(key))) return undefined;
  const meta = params._meta;
  if (meta !== undefined && (!isPlainObject(meta) || 'progressToken' in meta || LOG_LEVEL_META_KEY in meta)) return undefined;
  return { id, params: params as CallToolRequest['params'] };
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

/**
 * The JSON-RPC answer to a direct call, as the SDK's protocol layer makes it: the (encoded) result,
 * or for a handler that threw, its code when it has one (-32002 renumbered -32602, as both eras'
 * codecs do), else -32603, and its message.
 */
export async function settleCall(id: string | number, outcome: Promise<unknown>, encode: (result: Record<string, unknown>) => Record<string, unknown> = (result) => result) {
  try {
    return { result: encode((await outcome) as Record<string, unknown>), jsonrpc: '2.0' as const, id };
  } catch (error) {
    const { code, message, data } = error as { code?: unknown; message?: string; data?: unknown };
    const thrown = Number.isSafeInteger(code) ? (code as number) : -32603;
    return { jsonrpc: '2.0' as const, id, error: { code: thrown === -32002 ? -32602 : thrown, message: message ?? 'Internal error', ...(data !== undefined && { data }) } };
  }
}

/** Writes the call's answer as the SDK's per-request transport does for a JSON answer (200, application/json). */
export async function answerFastCall(res: ServerResponse, id: string | number, outcome: Promise<unknown>): Promise<void> {
  const message = await settleCall(id, outcome, encodeResult);
  if (res.destroyed) return;
  const bytes = Buffer.from(JSON.stringify(message));
  res.writeHead(200, { 'content-type': 'application/json', 'content-length': String(bytes.length) });
  res.end(bytes);
}
