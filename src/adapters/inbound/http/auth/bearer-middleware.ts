import type Koa from 'koa';
import type { Logger } from '../../../../domain/ports/logger.port.js';
import type { Principal } from '../../../../domain/principal.js';
import type { AuthFailureReason, BearerAuthenticator } from './authenticator.js';

export interface BearerChallenge {
  /** oauth mode: where the RFC 9728 protected-resource metadata is served. */
  readonly resourceMetadataUrl?: string;
  /** Scopes a token must carry, announced in the challenge. */
  readonly scopes: readonly string[];
}

const REALM = 'mcp-filesystem';

/** The principal the bearer middleware put on a request, if any. */
export function principalOf(ctx: Koa.Context): Principal | undefined {
  return (ctx.state as { principal?: Principal }).principal;
}

/** A request the bearer guard refused: what to answer, and why (for the log and the metrics). */
export interface BearerRefusal {
  readonly reason: AuthFailureReason;
  readonly status: number;
  readonly wwwAuthenticate: string;
  /** The JSON-RPC error body. */
  readonly body: { jsonrpc: '2.0'; error: { code: number; message: string }; id: null };
}

/**
 * Judges an Authorization header: the principal its bearer token authenticates, or the refusal
 * (401, or 403 for a valid token lacking a scope, 503 when the issuer cannot be reached) with a
 * WWW-Authenticate challenge (RFC 6750, RFC 9728). Security: the token is never logged or echoed.
 */
export type BearerJudge = (authorization: string) => Promise<{ principal: Principal } | { refusal: BearerRefusal }>;

export function bearerJudge(
  authenticator: BearerAuthenticator,
  challenge: BearerChallenge,
  onFailure: (reason: AuthFailureReason) => void = () => undefined,
): BearerJudge {
  return async (authorization) => {
    const token = bearerTokenOf(authorization);
    if (token === undefined) {
      onFailure('missing_token');
      return { refusal: refusalOf(challenge, 'missing_token', 'a bearer token is required') };
    }
    const outcome = await authenticator.authenticate(token);
    if (!outcome.ok) {
      onFailure(outcome.reason);
      return { refusal: refusalOf(challenge, outcome.reason, outcome.description) };
    }
    return { principal: outcome.principal };
  };
}

/** Says in the log that a request was refused: its reason, method, path and peer, never its credentials. */
export function logRefusal(logger: Logger, refusal: BearerRefusal, request: { method?: string; path: string; remote?: string }): void {
  logger.warn('authentication failed', { reason: refusal.reason, method: request.method, path: request.path, remote: request.remote });
}

/**
 * Guards /mcp as Koa middleware (bearerJudge): a refused request gets its status, challenge and
 * JSON-RPC error body. Runs before the session lookup, so an unauthenticated request learns nothing
 * about sessions.
 */
export function bearerAuth(judge: BearerJudge, logger: Logger): Koa.Middleware {
  return async (ctx, next) => {
    const verdict = await judge(ctx.get('authorization'));
    if ('refusal' in verdict) {
      logRefusal(logger, verdict.refusal, { method: ctx.method, path: ctx.path, remote: ctx.ip });
      ctx.set('WWW-Authenticate', verdict.refusal.wwwAuthenticate);
      ctx.status = verdict.refusal.status;
      ctx.body = verdict.refusal.body;
      return;
    }
    (ctx.state as { principal?: Principal }).principal = verdict.principal;
    await next();
  };
}

export function bearerTokenOf(header: string): string | undefined {
  const match = /^Bearer +([A-Za-z0-9\-._~+/]+=*) *$/i.exec(header);
  return match ? match[1] : undefined;
}

function refusalOf(challenge: BearerChallenge, reason: AuthFailureReason, description: string): BearerRefusal {
  const status = reason === 'insufficient_scope' ? 403 : reason === 'issuer_unavailable' ? 503 : 401;
  const parameters = [`realm="${REALM}"`];
  // RFC 6750 3.1: a request without credentials gets no error code.
  if (reason === 'insufficient_scope') parameters.push('error="insufficient_scope"');
  else if (reason !== 'missing_token') parameters.push('error="invalid_token"');
  if (reason !== 'missing_token') parameters.push(`error_description="${description}"`);
  if (challenge.scopes.length > 0) parameters.push(`scope="${challenge.scopes.join(' ')}"`);
  if (challenge.resourceMetadataUrl) parameters.push(`resource_metadata="${challenge.resourceMetadataUrl}"`);
  const message = status === 403 ? `Forbidden: ${description}` : status === 503 ? `Service Unavailable: ${description}` : `Unauthorized: ${description}`;
  return { reason, status, wwwAuthenticate: `Bearer ${parameters.join(', ')}`, body: { jsonrpc: '2.0', error: { code: -32001, message }, id: null } };
}
