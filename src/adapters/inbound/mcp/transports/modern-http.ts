import 'reflect-metadata';
import type { IncomingMessage } from 'node:http';
import { inject, injectable } from 'inversify';
import { createMcpHandler, PROTOCOL_VERSION_META_KEY, type AuthInfo, type McpHttpHandler, type McpRequestContext } from '@modelcontextprotocol/server';
import { TOKENS } from '../../../shared/tokens.js';
import type { Logger } from '../../../../domain/ports/logger.port.js';
import { type Principal, UNRESTRICTED_PRINCIPAL } from '../../../../domain/principal.js';
import { McpServerFactory } from '../protocol/server-factory.js';
import { RequestScopes } from '../protocol/request-scopes.js';
import { isModernRevision } from '../protocol/protocol-era.js';
import type { McpRequest } from './mcp-request.js';
import { isListenRequest, ModernListen } from './modern-listen.js';
import { writeJsonRpcError } from './sse-stream.js';
import { toBodylessWebRequest, writeWebResponse } from './web-exchange.js';
import { answerFastCall, fastCallOf } from './modern-fast-call.js';

/** What the endpoint hands the SDK as a request's `authInfo`, for the factory to read back. */
interface CallerInfo extends AuthInfo {
  readonly extra: { readonly principal: Principal; readonly scope: string };
}

/**
 * Whether a POST belongs to the 2026-07-28 protocol: a single JSON-RPC message whose `_meta` names
 * its protocol version (the per-request envelope), or one sent under an `MCP-Protocol-Version`
 * header naming a 2026 revision without that envelope (the modern path refuses it with -32602 and
 * the request's id, as the SDK's own classification does). Anything else, batches and `initialize`
 * included, is 2025-era traffic and keeps its sessions. The SDK's `isLegacyRequest` answers the same
 * question, but wants a web Request built first, which every legacy request would pay for.
 */
export function claimsModernEra(body: unknown, req?: IncomingMessage): boolean {
  if (body === null || typeof body !== 'object' || Array.isArray(body)) return false;
  const message = body as { method?: unknown; params?: { _meta?: unknown } };
  const meta = message.params?._meta;
  if (meta !== null && typeof meta === 'object' && PROTOCOL_VERSION_META_KEY in meta) return true;
  const version = req?.headers['mcp-protocol-version'];
  return typeof message.method === 'string' && typeof version === 'string' && isModernRevision(version.trim());
}

/** A GET or DELETE without a session that says it speaks a 2026 revision: the modern path answers it (405). */
export function modernWithoutBody(req: IncomingMessage): boolean {
  const version = req.headers['mcp-protocol-version'];
  return typeof version === 'string' && isModernRevision(version) && req.headers['mcp-session-id'] === undefined;
}

/**
 * MCP 2026-07-28 over HTTP: no initialize and no session, every POST carries its protocol version
 * and client capabilities. The SDK's per-request entry (`createMcpHandler`, strict: 2025 traffic
 * never reaches it) answers each POST with a fresh MCP Server from our factory, for the caller the
 * bearer guard authenticated. Host/Origin guard, authentication, body limits, the admission budget
 * and metrics run before it, in the same Koa app as the 2025 endpoint.
 */
@injectable()
export class ModernHttpEndpoint {
  private readonly handler: McpHttpHandler;
  private readonly onerror: (error: Error) => void;

  constructor(
    @inject(McpServerFactory) private readonly servers: McpServerFactory,
    @inject(RequestScopes) private readonly scopes: RequestScopes,
    @inject(TOKENS.Logger) private readonly logger: Logger,
    @inject(ModernListen) private readonly listen: ModernListen,
  ) {
    this.onerror = (error: Error) => this.logger.warn('modern MCP request refused or failed', { error: error.message });
    this.handler = createMcpHandler((context) => this.build(context), { legacy: 'reject', onerror: this.onerror });
  }

  /** One request; `body` is the JSON the 2025 endpoint already read within its limits. */
  async serve(request: McpRequest, body?: unknown): Promise<void> {
    // subscriptions/listen is ours, not the SDK router's: see ModernListen (per-principal grants and budgets).
    if (isListenRequest(body)) return this.listen.serveHttp(body, request.caller, request.res);
    const scope = this.scopes.open();
    const auth: CallerInfo = { token: '', clientId: request.caller.name, scopes: [], extra: { principal: request.caller, scope } };
    const { req, res } = request;
    const closed = new AbortController();
    res.once('close', () => {
      this.scopes.close(scope);
      if (!res.writableFinished) closed.abort();
    });
    // A plain tools/call is answered here, without a web Request, an MCP Server or a Response for it
    // (issue 29 §4; writes only when no person can be asked, see directCall); everything else, and every
    // refusal, is the SDK's (modern-fast-call.ts).
    const fast = body === undefined ? undefined : fastCallOf(body, req);
    // Security: the call runs as the caller the bearer guard authenticated, with its grant and tool policy, as on the SDK's path.
    // A modern request's failures reach its stream only under a log level, which sends it the SDK's way.
    const direct = fast && this.servers.directCall(fast.params, { sessionId: scope, principal: request.caller, modern: true, signal: closed.signal, declaresRoots: fast.declaresRoots, envelopeElicitation: fast.elicitation, onFailure: () => undefined });
    if (fast && direct) return answerFastCall(res, fast.id, direct);
    let response: Response;
    try {
      // Security: `auth` is ours, set after the bearer guard; nothing a client sends can reach it.
      response = await this.handler.fetch(toBodylessWebRequest(req, closed.signal), { authInfo: auth, ...(body !== undefined && { parsedBody: body }) });
    } catch (error) {
      this.onerror(error instanceof Error ? error : new Error(String(error)));
      return writeJsonRpcError(res, 500, -32603, 'Internal server error');
    }
    await writeWebResponse(response, res, closed.signal);
  }

  async close(): Promise<void> {
    await this.handler.close();
  }

  private build(context: McpRequestContext) {
    const caller = (context.authInfo as CallerInfo | undefined)?.extra;
    // Security: without our own authInfo (never expected) the request gets no grant at all rather than the operator's.
    if (!caller) throw new Error('modern request without a caller');
    return this.servers.create(caller.scope, caller.principal ?? UNRESTRICTED_PRINCIPAL);
  }
}
