import 'reflect-metadata';
import { randomUUID } from 'node:crypto';
import { inject, injectable, optional } from 'inversify';
import type { ServerResponse } from 'node:http';
import { ProtocolErrorCode, SUBSCRIPTION_ID_META_KEY } from '@modelcontextprotocol/server';
import { MCP_TOKENS } from '../mcp-tokens.js';
import type { AsyncLocalPrincipalContext } from '../protocol/call-principal.js';
import { JsonRpcError } from '../protocol/json-rpc-error.js';
import { McpSubscriptionHandler } from '../protocol/subscriptions.js';
import type { Principal } from '../../../../domain/principal.js';

/** A comment frame this often keeps proxies from closing a quiet stream. */
const KEEP_ALIVE_MS = 15_000;

type RequestId = string | number;

/** What a listen stream writes to: one JSON-RPC message per call, `end` when it is over. */
export interface ListenSink {
  send(message: Record<string, unknown>): void;
  /** Told once when the client goes away (closed stream, cancelled listen). */
  onClose(then: () => void): void;
}

/** A `subscriptions/listen` request (2026-07-28), as parsed from the wire. */
export interface ListenRequest {
  readonly id: RequestId;
  readonly params?: { notifications?: { resourceSubscriptions?: unknown } };
}

export function isListenRequest(body: unknown): body is ListenRequest {
  return body !== null && typeof body === 'object' && (body as { method?: unknown }).method === 'subscriptions/listen' && 'id' in body;
}

/**
 * `subscriptions/listen` for modern clients, answered here rather than by the SDK's listen router:
 * the SDK's event bus is one broadcast for every stream and knows no principal, so a stream of one
 * principal would hear about roots only another may read. Each stream here subscribes its filter's
 * resource URIs through McpSubscriptionHandler as its own principal (Security: the grant, tool
 * policy, links leading out and the watch budget are checked exactly as for resources/subscribe),
 * and closing the stream gives the budget back. Changes from other replicas arrive through the
 * change feed that Subscriptions already listens to.
 */
@injectable()
export class ModernListen {
  constructor(
    // Absent when the served toolsets leave resources out: then there is nothing to listen to.
    @inject(McpSubscriptionHandler) @optional() private readonly subscriptions: McpSubscriptionHandler | undefined,
    @inject(MCP_TOKENS.PrincipalContext) private readonly principals: AsyncLocalPrincipalContext,
  ) {}

  /**
   * Subscribes, then acknowledges on `sink`; a URI that cannot be subscribed answers the listen with
   * its JSON-RPC error instead (and nothing stays subscribed). Answers false when refused.
   */
  async open(request: ListenRequest, principal: Principal, sink: ListenSink): Promise<boolean> {
    const subscriptions = this.subscriptions;
    if (!subscriptions) {
      sink.send(errorOf(request.id, new JsonRpcError(ProtocolErrorCode.MethodNotFound, 'Method not found: subscriptions/listen (this server serves no resources)')));
      return false;
    }
    const listenId = `listen:${randomUUID()}`;
    const meta = { [SUBSCRIPTION_ID_META_KEY]: request.id };
    const uris = request.params?.notifications?.resourceSubscriptions ?? [];
    if (!Array.isArray(uris) || uris.some((uri) => typeof uri !== 'string')) {
      sink.send(errorOf(request.id, JsonRpcError.invalidParams("Invalid params: 'notifications.resourceSubscriptions' must be a list of URIs")));
      return false;
    }
    let closed = false;
    sink.onClose(() => {
      closed = true;
      subscriptions.sessionEnded(listenId);
    });
    try {
      for (const uri of uris as string[]) {
        const send = () => {
          if (!closed) sink.send({ jsonrpc: '2.0', method: 'notifications/resources/updated', params: { uri, _meta: meta } });
        };
        await this.principals.run(principal, () => subscriptions.listen(listenId, principal.name, uri, send));
      }
    } catch (error) {
      subscriptions.sessionEnded(listenId);
      sink.send(errorOf(request.id, error instanceof JsonRpcError ? error : new JsonRpcError(ProtocolErrorCode.InternalError, 'internal error')));
      return false;
    }
    if (closed) {
      subscriptions.sessionEnded(listenId);
      return false;
    }
    // Only resource subscriptions are honoured: this server's tools, prompts and resource lists do not change at run time.
    const honored = uris.length > 0 ? { resourceSubscriptions: uris } : {};
    sink.send({ jsonrpc: '2.0', method: 'notifications/subscriptions/acknowledged', params: { notifications: honored, _meta: meta } });
    return true;
  }

  /** Serves one listen over HTTP as an SSE stream (or a JSON error when refused). */
  async serveHttp(request: ListenRequest, principal: Principal, res: ServerResponse): Promise<void> {
    let stream = false;
    let keepAlive: NodeJS.Timeout | undefined;
    const sink: ListenSink = {
      send: (message) => {
        if (!stream && 'error' in message) {
          res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(message));
          return;
        }
        if (!stream) {
          stream = true;
          res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache, no-transform', connection: 'keep-alive' });
          keepAlive = setInterval(() => res.write(': keepalive\n\n'), KEEP_ALIVE_MS);
          keepAlive.unref();
        }
        res.write(`event: message\ndata: ${JSON.stringify(message)}\n\n`);
      },
      onClose: (then) => {
        res.once('close', () => {
          clearInterval(keepAlive);
          then();
        });
      },
    };
    await this.open(request, principal, sink);
  }
}

/**
 * subscriptions/listen over stdio, for one connection: `take` is shown each incoming message first
 * and answers true for one it handled (a listen, or the cancellation of one), which the SDK then
 * never sees; `closeAll` ends every open listen (stdin ended).
 */
export interface StdioListens {
  take(message: unknown): boolean;
  closeAll(): void;
}

export function stdioListens(listen: ModernListen, principal: Principal, send: (message: Record<string, unknown>) => void): StdioListens {
  const open = new Map<RequestId, () => void>();
  const close = (id: RequestId) => {
    const closer = open.get(id);
    open.delete(id);
    closer?.();
  };
  return {
    take(message) {
      if (isListenRequest(message)) {
        close(message.id);
        const sink: ListenSink = { send, onClose: (then) => open.set(message.id, then) };
        void listen.open(message, principal, sink).then((opened) => {
          if (!opened) open.delete(message.id);
        });
        return true;
      }
      const cancelled = cancelledRequestOf(message);
      if (cancelled === undefined || !open.has(cancelled)) return false;
      close(cancelled);
      return true;
    },
    closeAll() {
      for (const id of [...open.keys()]) close(id);
    },
  };
}

function cancelledRequestOf(message: unknown): RequestId | undefined {
  const note = message as { method?: unknown; params?: { requestId?: unknown } } | null;
  if (note?.method !== 'notifications/cancelled') return undefined;
  const id = note.params?.requestId;
  return typeof id === 'string' || typeof id === 'number' ? id : undefined;
}

function errorOf(id: RequestId, error: JsonRpcError): Record<string, unknown> {
  return { jsonrpc: '2.0', id, error: { code: error.code, message: error.message, ...(error.data ? { data: error.data } : {}) } };
}
