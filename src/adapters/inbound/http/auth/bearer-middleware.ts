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

/**
 * Guards /mcp: a request without a valid bearer token gets 401 (403 for a valid token lacking a
 * scope), a JSON-RPC error body and a WWW-Authenticate challenge (RFC 6750, RFC 9728). Runs
 * before the session lookup, so an unauthenticated request learns nothing about sessions.
 * Security: neither the token nor the Authorization header is ever logged or echoed.
 */
export function bearerAuth(
  authenticator: BearerAuthenticator,
  challenge: BearerChallenge,
  logger: Logger,
  onFailure: (reason: AuthFailureReason) => void = () => undefined,
): Koa.Middleware {
  return async (ctx, next) => {
    const token = bearerTokenOf(ctx.get('authorization'));
    if (token === undefined) {
      onFailure('missing_token');
      return refuse(ctx, challenge, logger, 'missing_token', 'a bearer token is required');
    }
    const outcome = await authenticator.authenticate(token);
    if (!outcome.ok) {
      onFailure(outcome.reason);
      return refuse(ctx, challenge, logger, outcome.reason, outcome.description);
    }
    (ctx.state as { principal?: Principal }).principal = outcome.principal;
    await next();
  };
}

export function bearerTokenOf(header: string): string | undefined {
  const match = /^Bearer +([A-Za-z0-9\-._~+/]+=*) *$/i.exec(header);
  return match ? match[1] : undefined;
}

function refuse(ctx: Koa.Context, challenge: BearerChallenge, logger: Logger, reason: AuthFailureReason, description: string): void {
  const status = reason === 'insufficient_scope' ? 403 : reason === 'issuer_unavailable' ? 503 : 401;
  const parameters = [`realm="${REALM}"`];
  // RFC 6750 3.1: a request without credentials gets no error code.
  if (reason === 'insufficient_scope') parameters.push('error="insufficient_scope"');
  else if (reason !== 'missing_token') parameters.push('error="invalid_token"');
  if (reason !== 'missing_token') parameters.push(`error_description="${description}"`);
  if (challenge.scopes.length > 0) parameters.push(`scope="${challenge.scopes.join(' ')}"`);
  if (challenge.resourceMetadataUrl) parameters.push(`resource_metadata="${challenge.resourceMetadataUrl}"`);
  logger.warn('authentication failed', { reason, method: ctx.method, path: ctx.path, remote: ctx.ip });
  ctx.set('WWW-Authenticate', `Bearer ${parameters.join(', ')}`);
  ctx.status = status;
  const message = status === 403 ? `Forbidden: ${description}` : status === 503 ? `Service Unavailable: ${description}` : `Unauthorized: ${description}`;
  ctx.body = { jsonrpc: '2.0', error: { code: -32001, message }, id: null };
}
