import 'reflect-metadata';
import { randomUUID } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import { inject, injectable } from 'inversify';
import type Koa from 'koa';
import Router from '@koa/router';
import { isInitializeRequest } from '@modelcontextprotocol/sdk/types.js';
import { TOKENS } from '../../../composition/tokens.js';
import type { Logger } from '../../../domain/ports/logger.port.js';
import { type Principal, UNRESTRICTED_PRINCIPAL } from '../../../domain/principal.js';
import { principalOf } from '../http/auth/bearer-middleware.js';
import { SessionStoreUnavailable } from '../../outbound/session-state-store.js';
import { NodeStreamableHttpTransport } from './node-streamable-http-transport.js';
import { writeJsonRpcError } from './sse-stream.js';
import { McpServerFactory } from './server-factory.js';
import { SessionRegistry } from './session-registry.js';

/** write_file and file_write carry whole files as JSON strings; 20 MB leaves room above max_file_size's default. */
const MAX_BODY_BYTES = 20 * 1024 * 1024;

export const MCP_PATH = '/mcp';

class BodyError extends Error {
  constructor(
    readonly status: number,
    readonly rpcCode: number,
    message: string,
  ) {
    super(message);
  }
}

function rpcError(ctx: Koa.Context, status: number, code: number, message: string): void {
  ctx.status = status;
  ctx.body = { jsonrpc: '2.0', error: { code, message }, id: null };
}

/**
 * The body as JSON, read with 'data' events: an async iterator over the request costs a promise
 * and a microtask per chunk, and a small JSON-RPC body is one chunk.
 */
function readJsonBody(request: IncomingMessage, limit: number): Promise<unknown> {
  const declared = Number(request.headers['content-length']);
  if (Number.isFinite(declared) && declared > limit) return Promise.reject(new BodyError(413, -32600, `Request body larger than ${limit} bytes`));
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    const onData = (chunk: Buffer) => {
      size += chunk.length;
      if (size > limit) {
        request.off('data', onData);
        request.off('end', onEnd);
        request.pause();
        reject(new BodyError(413, -32600, `Request body larger than ${limit} bytes`));
        return;
      }
      chunks.push(chunk);
    };
    const onEnd = () => {
      request.off('error', reject);
      try {
        const text = (chunks.length === 1 ? chunks[0] : Buffer.concat(chunks)).toString('utf8');
        resolve(JSON.parse(text));
      } catch {
        reject(new BodyError(400, -32700, 'Parse error: the request body is not valid JSON'));
      }
    };
    request.on('data', onData);
    request.once('end', onEnd);
    request.once('error', reject);
  });
}

function sessionIdOf(ctx: Koa.Context): string | undefined {
  const value = ctx.get('mcp-session-id');
  return value === '' ? undefined : value;
}

/** The principal the bearer guard authenticated; with auth.mode none, the local operator ('local'). */
function callerOf(ctx: Koa.Context): Principal {
  return principalOf(ctx) ?? UNRESTRICTED_PRINCIPAL;
}

/** Seconds a client should wait before another initialize when the caps are reached, or retry when the store is down. */
const RETRY_AFTER_SECONDS = 30;
const STORE_RETRY_AFTER_SECONDS = 5;

/**
 * Streamable HTTP at /mcp: POST carries JSON-RPC, GET opens the server-to-client SSE
 * stream, DELETE ends a session. Stateful: an initialize request without a session id
 * records a session in the session store and answers with its Mcp-Session-Id. Any later
 * request of that session is checked against the store (it may have ended, idled out, or
 * belong to another principal) and served by this process's MCP Server for it, built on the
 * spot if another replica (or this one before a restart) opened it.
 */
@injectable()
export class McpHttpEndpoint {
  /** Servers being rebuilt for resumed sessions, so concurrent requests share one. */
  private readonly resuming = new Map<string, Promise<NodeStreamableHttpTransport>>();

  constructor(
    @inject(McpServerFactory) private readonly servers: McpServerFactory,
    @inject(SessionRegistry) private readonly sessions: SessionRegistry,
    @inject(TOKENS.Logger) private readonly logger: Logger,
  ) {}

  router(): Router {
    const router = new Router();
    router.post(MCP_PATH, (ctx) => this.post(ctx));
    router.get(MCP_PATH, (ctx) => this.forward(ctx));
    router.delete(MCP_PATH, (ctx) => this.forward(ctx));
    return router;
  }

  private async post(ctx: Koa.Context): Promise<void> {
    let body: unknown;
    try {
      body = await readJsonBody(ctx.req, MAX_BODY_BYTES);
    } catch (error) {
      if (!(error instanceof BodyError)) throw error;
      // The unread rest of an oversized body would be taken for the next request on this socket.
      if (error.status === 413) ctx.set('Connection', 'close');
      rpcError(ctx, error.status, error.rpcCode, error.message);
      return;
    }
    const sessionId = sessionIdOf(ctx);
    if (sessionId !== undefined) return this.serveSession(ctx, sessionId, body);
    if (!isInitializeRequest(body)) return rpcError(ctx, 400, -32000, 'Bad Request: No valid session ID provided');
    return this.initialize(ctx, body);
  }

  private async forward(ctx: Koa.Context): Promise<void> {
    const sessionId = sessionIdOf(ctx);
    if (sessionId === undefined) return rpcError(ctx, 400, -32000, 'Bad Request: Mcp-Session-Id header is required');
    return this.serveSession(ctx, sessionId);
  }

  /** Every request that names a session: store check, ownership check, then the session's transport. */
  private async serveSession(ctx: Koa.Context, sessionId: string, body?: unknown): Promise<void> {
    await this.withStore(ctx, async () => {
      const caller = callerOf(ctx);
      const record = await this.sessions.resume(sessionId);
      // Security: a session belongs to the principal that opened it; to anyone else it does not exist (404, as if it never had).
      if (!record || record.principal !== caller.name) return rpcError(ctx, 404, -32001, 'Session not found');
      await this.handle(ctx, await this.transportOf(sessionId, caller), body);
    });
  }

  private async initialize(ctx: Koa.Context, body: unknown): Promise<void> {
    await this.withStore(ctx, async () => {
      const id = randomUUID();
      const principal = callerOf(ctx);
      // Nothing is built for the session before the store agreed to it: a flood beyond the caps allocates nothing.
      const outcome = await this.sessions.open(id, principal.name);
      if (outcome !== 'opened') {
        ctx.set('Retry-After', String(RETRY_AFTER_SECONDS));
        const which = outcome === 'too-many-sessions' ? 'the server holds its maximum number of sessions' : 'this principal holds its maximum number of sessions';
        return rpcError(ctx, 503, -32000, `Service Unavailable: ${which} (sessions.max / sessions.max_per_principal); end an unused session or retry later`);
      }
      const server = this.servers.create(id, principal);
      const transport: NodeStreamableHttpTransport = new NodeStreamableHttpTransport({
        sessionId: id,
        onsessioninitialized: () => this.sessions.add({ id, server, transport, principal }),
        onsessionclosed: () => this.sessions.end(id),
      });
      await server.connect(transport);
      await this.handle(ctx, transport, body);
      // A refused handshake (bad headers) leaves no record behind.
      if (transport.sessionId === undefined) {
        await this.sessions.discard(id);
        await server.close();
      }
    });
  }

  /**
   * This process's transport for a session the store vouched for, built if it has none. A
   * rebuilt Server takes the grant (roots, read-only) of the caller, whose name the store
   * just matched with the session's owner.
   */
  private async transportOf(sessionId: string, caller: Principal): Promise<NodeStreamableHttpTransport> {
    const existing = this.sessions.get(sessionId)?.transport;
    if (existing instanceof NodeStreamableHttpTransport) return existing;
    let pending = this.resuming.get(sessionId);
    if (!pending) {
      pending = this.resume(sessionId, caller).finally(() => this.resuming.delete(sessionId));
      this.resuming.set(sessionId, pending);
    }
    return pending;
  }

  private async resume(sessionId: string, principal: Principal): Promise<NodeStreamableHttpTransport> {
    const server = this.servers.create(sessionId, principal);
    // The store proved the session exists: the transport starts initialized, no handshake is replayed.
    const transport = new NodeStreamableHttpTransport({ sessionId, initialized: true, onsessionclosed: () => this.sessions.end(sessionId) });
    await server.connect(transport);
    this.sessions.add({ id: sessionId, server, transport, principal });
    return transport;
  }

  /** Runs a step that needs the session store; while the store is down the answer is 503, never a crash. */
  private async withStore(ctx: Koa.Context, step: () => Promise<void>): Promise<void> {
    try {
      await step();
    } catch (error) {
      if (!(error instanceof SessionStoreUnavailable)) throw error;
      this.logger.warn('request refused: session store unreachable', { method: ctx.method, reason: error.reason });
      if (ctx.res.headersSent) return;
      ctx.respond = true;
      ctx.set('Retry-After', String(STORE_RETRY_AFTER_SECONDS));
      rpcError(ctx, 503, -32000, 'Service Unavailable: the session store is unreachable; retry shortly');
    }
  }

  private async handle(ctx: Koa.Context, transport: NodeStreamableHttpTransport, body?: unknown): Promise<void> {
    ctx.respond = false;
    try {
      await transport.handleRequest(ctx.req, ctx.res, body);
    } catch (error) {
      // A DELETE ends the session in the store: an unreachable store is a 503 (withStore), not a failure.
      if (error instanceof SessionStoreUnavailable) throw error;
      this.logger.error('MCP request failed', { error: String(error), stack: error instanceof Error ? error.stack : undefined });
      if (!ctx.res.headersSent) writeJsonRpcError(ctx.res, 500, -32603, 'Internal server error');
    }
  }
}
