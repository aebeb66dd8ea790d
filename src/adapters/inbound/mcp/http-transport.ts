import 'reflect-metadata';
import { randomUUID } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import { inject, injectable } from 'inversify';
import type Koa from 'koa';
import Router from '@koa/router';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { isInitializeRequest } from '@modelcontextprotocol/sdk/types.js';
import { TOKENS } from '../../../composition/tokens.js';
import type { Logger } from '../../../domain/ports/logger.port.js';
import { type Principal, UNRESTRICTED_PRINCIPAL } from '../../../domain/principal.js';
import { principalOf } from '../http/auth/bearer-middleware.js';
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

async function readJsonBody(request: IncomingMessage, limit: number): Promise<unknown> {
  const declared = Number(request.headers['content-length']);
  if (Number.isFinite(declared) && declared > limit) throw new BodyError(413, -32600, `Request body larger than ${limit} bytes`);
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of request) {
    size += (chunk as Buffer).length;
    if (size > limit) throw new BodyError(413, -32600, `Request body larger than ${limit} bytes`);
    chunks.push(chunk as Buffer);
  }
  try {
    return JSON.parse(Buffer.concat(chunks).toString('utf8'));
  } catch {
    throw new BodyError(400, -32700, 'Parse error: the request body is not valid JSON');
  }
}

function sessionIdOf(ctx: Koa.Context): string | undefined {
  const value = ctx.get('mcp-session-id');
  return value === '' ? undefined : value;
}

/**
 * Streamable HTTP at /mcp: POST carries JSON-RPC, GET opens the server-to-client SSE
 * stream, DELETE ends a session. Stateful: an initialize request without a session id
 * creates a transport and an MCP Server, and the Mcp-Session-Id they answer with routes
 * every later request of that client to them.
 */
@injectable()
export class McpHttpEndpoint {
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
    if (sessionId !== undefined) {
      const transport = this.transportOf(sessionId, ctx);
      if (!transport) return rpcError(ctx, 404, -32001, 'Session not found');
      return this.handle(ctx, transport, body);
    }
    if (!isInitializeRequest(body)) return rpcError(ctx, 400, -32000, 'Bad Request: No valid session ID provided');
    return this.handle(ctx, await this.open(principalOf(ctx) ?? UNRESTRICTED_PRINCIPAL), body);
  }

  private async forward(ctx: Koa.Context): Promise<void> {
    const sessionId = sessionIdOf(ctx);
    if (sessionId === undefined) return rpcError(ctx, 400, -32000, 'Bad Request: Mcp-Session-Id header is required');
    const transport = this.transportOf(sessionId, ctx);
    if (!transport) return rpcError(ctx, 404, -32001, 'Session not found');
    return this.handle(ctx, transport);
  }

  /** Security: another principal's session is "not found" (404), exactly like one that never existed. */
  private transportOf(sessionId: string, ctx: Koa.Context): StreamableHTTPServerTransport | undefined {
    const session = this.sessions.get(sessionId);
    const caller = principalOf(ctx) ?? UNRESTRICTED_PRINCIPAL;
    if (session === undefined || (session.principal ?? UNRESTRICTED_PRINCIPAL).name !== caller.name) return undefined;
    return session.transport instanceof StreamableHTTPServerTransport ? session.transport : undefined;
  }

  private async open(principal: Principal): Promise<StreamableHTTPServerTransport> {
    const id = randomUUID();
    const server = this.servers.create(id, principal);
    const transport: StreamableHTTPServerTransport = new StreamableHTTPServerTransport({
      sessionIdGenerator: () => id,
      // Registered only once initialize succeeded, so a failed handshake leaves nothing behind.
      onsessioninitialized: () => this.sessions.add({ id, server, transport, principal }),
    });
    await server.connect(transport);
    return transport;
  }

  private async handle(ctx: Koa.Context, transport: StreamableHTTPServerTransport, body?: unknown): Promise<void> {
    ctx.respond = false;
    try {
      await transport.handleRequest(ctx.req, ctx.res, body);
    } catch (error) {
      this.logger.error('MCP request failed', { error: String(error), stack: error instanceof Error ? error.stack : undefined });
      if (!ctx.res.headersSent) {
        ctx.res.writeHead(500, { 'content-type': 'application/json' });
        ctx.res.end(JSON.stringify({ jsonrpc: '2.0', error: { code: -32603, message: 'Internal server error' }, id: null }));
      }
    }
  }
}
