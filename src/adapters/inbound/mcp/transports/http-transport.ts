import 'reflect-metadata';
import { randomUUID } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { inject, injectable } from 'inversify';
import type Koa from 'koa';
import Router from '@koa/router';
import { isInitializeRequest } from '@modelcontextprotocol/server';
import { TOKENS } from '../../../shared/tokens.js';
import type { AppConfig } from '../../../../config/app-config.js';
import { requestLimitsOf } from '../../../../config/schema.js';
import type { Logger } from '../../../../domain/ports/logger.port.js';
import { type Principal, UNRESTRICTED_PRINCIPAL } from '../../../../domain/principal.js';
import { principalOf } from '../../http/auth/bearer-middleware.js';
import { SessionStoreUnavailable } from '../../../shared/session-state-store.port.js';
import { NodeStreamableHttpTransport } from './node-streamable-http-transport.js';
import { writeJsonRpcError } from './sse-stream.js';
import { requestLimitBytes } from './request-size.js';
import { AdmissionBudget } from './admission-budget.js';
import { BodyError, readJsonBody, type BodyLimits } from './http-body.js';
import { McpServerFactory } from '../protocol/server-factory.js';
import { SessionRegistry } from '../protocol/session-registry.js';
import type { McpRequest } from './mcp-request.js';
import { claimsModernEra, ModernHttpEndpoint, modernWithoutBody } from './modern-http.js';


export const MCP_PATH = '/mcp';
export type { McpRequest } from './mcp-request.js';


function sessionIdOf(req: IncomingMessage): string | undefined {
  const value = req.headers['mcp-session-id'];
  return typeof value === 'string' && value !== '' ? value : undefined;
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
  /** write_file, create_file and file_write carry whole files as JSON strings: see request-size.ts. */
  private readonly bodyLimits: BodyLimits;

  constructor(
    @inject(TOKENS.Config) config: AppConfig,
    @inject(McpServerFactory) private readonly servers: McpServerFactory,
    @inject(SessionRegistry) private readonly sessions: SessionRegistry,
    @inject(TOKENS.Logger) private readonly logger: Logger,
    @inject(AdmissionBudget) private readonly budget: AdmissionBudget,
    @inject(ModernHttpEndpoint) private readonly modern: ModernHttpEndpoint,
  ) {
    this.bodyLimits = { maxBytes: requestLimitBytes(config.settings.maxFileSize), idleMs: requestLimitsOf(config).bodyIdleSeconds * 1000, budget };
  }

  /** /mcp as Koa routes (the HTTP server's lean lane calls `serve` itself, see HttpServer). */
  router(): Router {
    const router = new Router();
    const serve = (ctx: Koa.Context) => {
      // The endpoint writes every answer itself, errors too.
      ctx.respond = false;
      return this.serve({ req: ctx.req, res: ctx.res, caller: principalOf(ctx) ?? UNRESTRICTED_PRINCIPAL });
    };
    router.post(MCP_PATH, serve);
    router.get(MCP_PATH, serve);
    router.delete(MCP_PATH, serve);
    return router;
  }

  /** A POST, GET or DELETE to /mcp; nothing it throws is left for the caller to answer. */
  async serve(request: McpRequest): Promise<void> {
    try {
      if (request.req.method === 'POST') await this.post(request);
      else await this.forward(request);
    } catch (error) {
      this.fail(request, error);
    }
  }

  /** Never echo an exception to a client: messages may carry host paths. */
  private fail(request: McpRequest, error: unknown): void {
    this.logger.error('MCP request failed', { error: String(error), stack: error instanceof Error ? error.stack : undefined });
    if (!request.res.headersSent) writeJsonRpcError(request.res, 500, -32603, 'Internal server error');
  }

  private async post(request: McpRequest): Promise<void> {
    // The body's bytes stay held against the budget until the request is answered: the parsed request lives that long.
    const admission = this.budget.open(request.caller.name);
    request.res.once('close', () => admission.release());
    let body: unknown;
    try {
      body = await readJsonBody(request.req, admission, this.bodyLimits);
    } catch (error) {
      if (!(error instanceof BodyError)) throw error;
      admission.release();
      if (error.status !== 400) this.logger.warn('request body refused', { status: error.status, reason: error.message, principal: request.caller.name });
      return writeJsonRpcError(request.res, error.status, error.rpcCode, error.message, error.headers, error.data);
    }
    // 2026-07-28 requests carry their protocol version in every body (or header): no session, the SDK's per-request path.
    if (claimsModernEra(body, request.req)) return this.modern.serve(request, body);
    const sessionId = sessionIdOf(request.req);
    if (sessionId !== undefined) return this.serveSession(request, sessionId, body);
    if (!isInitializeRequest(body)) return writeJsonRpcError(request.res, 400, -32000, 'Bad Request: No valid session ID provided');
    return this.initialize(request, body);
  }

  private async forward(request: McpRequest): Promise<void> {
    if (modernWithoutBody(request.req)) return this.modern.serve(request);
    const sessionId = sessionIdOf(request.req);
    if (sessionId === undefined) return writeJsonRpcError(request.res, 400, -32000, 'Bad Request: Mcp-Session-Id header is required');
    return this.serveSession(request, sessionId);
  }

  /** Every request that names a session: store check, ownership check, then the session's transport. */
  private async serveSession(request: McpRequest, sessionId: string, body?: unknown): Promise<void> {
    await this.withStore(request, async () => {
      const { caller } = request;
      const record = await this.sessions.resume(sessionId);
      // Security: a session belongs to the principal that opened it; to anyone else it does not exist (404, as if it never had).
      if (!record || record.principal !== caller.name) return writeJsonRpcError(request.res, 404, -32001, 'Session not found');
      await this.handle(request, await this.transportOf(sessionId, caller), body);
    });
  }

  private async initialize(request: McpRequest, body: unknown): Promise<void> {
    await this.withStore(request, async () => {
      const id = randomUUID();
      const principal = request.caller;
      // Nothing is built for the session before the store agreed to it: a flood beyond the caps allocates nothing.
      const outcome = await this.sessions.open(id, principal.name);
      if (outcome !== 'opened') {
        const which = outcome === 'too-many-sessions' ? 'the server holds its maximum number of sessions' : 'this principal holds its maximum number of sessions';
        const message = `Service Unavailable: ${which} (sessions.max / sessions.max_per_principal); end an unused session or retry later`;
        return writeJsonRpcError(request.res, 503, -32000, message, { 'retry-after': String(RETRY_AFTER_SECONDS) });
      }
      const server = this.servers.create(id, principal);
      const transport: NodeStreamableHttpTransport = new NodeStreamableHttpTransport({
        sessionId: id,
        onsessioninitialized: () => this.sessions.add({ id, server, transport, principal }),
        onsessionclosed: () => this.sessions.end(id),
      });
      await server.connect(transport);
      await this.handle(request, transport, body);
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
  private async withStore(request: McpRequest, step: () => Promise<void>): Promise<void> {
    try {
      await step();
    } catch (error) {
      if (!(error instanceof SessionStoreUnavailable)) throw error;
      this.logger.warn('request refused: session store unreachable', { method: request.req.method, reason: error.reason });
      if (request.res.headersSent) return;
      writeJsonRpcError(request.res, 503, -32000, 'Service Unavailable: the session store is unreachable; retry shortly', {
        'retry-after': String(STORE_RETRY_AFTER_SECONDS),
      });
    }
  }

  private async handle(request: McpRequest, transport: NodeStreamableHttpTransport, body?: unknown): Promise<void> {
    try {
      await transport.handleRequest(request.req, request.res, body);
    } catch (error) {
      // A DELETE ends the session in the store: an unreachable store is a 503 (withStore), not a failure.
      if (error instanceof SessionStoreUnavailable) throw error;
      // Answered here, not left to serve(): initialize still discards the record of a session that failed to open.
      this.fail(request, error);
    }
  }
}
