import 'reflect-metadata';
import { inject, injectable, optional } from 'inversify';
import Router from '@koa/router';
import type Koa from 'koa';
import { TOKENS } from '../../../shared/tokens.js';
import type { AppConfig, OAuthConfig } from '../../../../config/app-config.js';
import type { Logger } from '../../../../domain/ports/logger.port.js';
import type { ServerMetrics } from '../../../shared/metrics.port.js';
import type { BearerAuthenticator } from './authenticator.js';
import { bearerAuth, bearerJudge, bearerTokenOf, type BearerChallenge, type BearerJudge } from './bearer-middleware.js';
import { JwtAuthenticator } from './jwt-authenticator.js';
import { StaticTokenAuthenticator } from './static-token-authenticator.js';

export const PROTECTED_RESOURCE_PATH = '/.well-known/oauth-protected-resource';

/** The URL of the RFC 9728 metadata for the configured resource (its origin, fixed by config, never by a Host header). */
export function resourceMetadataUrl(oauth: OAuthConfig): string {
  return `${new URL(oauth.audience).origin}${PROTECTED_RESOURCE_PATH}`;
}

/** auth.* as HTTP: the guard for /mcp and, in oauth mode, the protected-resource metadata route. */
@injectable()
export class HttpAuthentication {
  private readonly authenticator?: BearerAuthenticator;

  constructor(
    @inject(TOKENS.Config) private readonly config: AppConfig,
    @inject(TOKENS.Logger) private readonly logger: Logger,
    @inject(TOKENS.Metrics) @optional() private readonly metrics?: ServerMetrics,
  ) {
    const auth = config.auth;
    if (auth?.mode === 'tokens') this.authenticator = new StaticTokenAuthenticator(auth.tokens);
    if (auth?.mode === 'oauth') this.authenticator = new JwtAuthenticator(auth.oauth);
  }

  /** The judge of a request's Authorization header for /mcp (bearerJudge); undefined in mode none. */
  bearerJudge(): BearerJudge | undefined {
    const auth = this.config.auth;
    if (this.authenticator === undefined || auth === undefined || auth.mode === 'none') return undefined;
    return bearerJudge(this.authenticator, this.challenge(auth), (reason) => this.metrics?.authFailed(reason));
  }

  /** Koa middleware for /mcp; undefined in mode none. */
  guard(): Koa.Middleware | undefined {
    const judge = this.bearerJudge();
    return judge && bearerAuth(judge, this.logger);
  }

  private challenge(auth: NonNullable<AppConfig['auth']>): BearerChallenge {
    return auth.mode === 'oauth' ? { scopes: auth.oauth.requiredScopes, resourceMetadataUrl: resourceMetadataUrl(auth.oauth) } : { scopes: [] };
  }

  /**
   * /metrics when auth is on: from loopback (a local Prometheus or sidecar) or with a valid token.
   * Security: the socket's address decides, never a forwarded-for header a client can write.
   */
  async allowsMetrics(ctx: Koa.Context): Promise<boolean> {
    if (this.authenticator === undefined) return true;
    if (isLoopbackAddress(ctx.req.socket.remoteAddress)) return true;
    const token = bearerTokenOf(ctx.get('authorization'));
    return token !== undefined && (await this.authenticator.authenticate(token)).ok;
  }

  /** RFC 9728 metadata at the root and the path-suffixed well-known URL; an empty router unless oauth. */
  metadataRouter(): Router {
    const router = new Router();
    const auth = this.config.auth;
    if (auth?.mode !== 'oauth') return router;
    const { oauth } = auth;
    const document = {
      resource: oauth.audience,
      authorization_servers: [oauth.issuer],
      scopes_supported: [...oauth.requiredScopes],
      bearer_methods_supported: ['header'],
      resource_name: 'mcp-filesystem',
    };
    const suffix = new URL(oauth.audience).pathname.replace(/\/+$/, '');
    const paths = suffix === '' ? [PROTECTED_RESOURCE_PATH] : [PROTECTED_RESOURCE_PATH, `${PROTECTED_RESOURCE_PATH}${suffix}`];
    for (const path of paths) {
      router.get(path, (ctx) => {
        ctx.set('Cache-Control', 'max-age=3600');
        ctx.body = document;
      });
    }
    return router;
  }

  /** Security: mode none off loopback was allowed by the operator; say so at every start. */
  warnIfUnauthenticated(): void {
    const auth = this.config.auth;
    if (auth?.mode === 'none' && auth.allowUnauthenticated) {
      this.logger.warn('authentication is off (auth.mode none, auth.allow_unauthenticated true): anyone who reaches the port can use every root', {
        host: this.config.host,
      });
    }
  }
}

function isLoopbackAddress(address: string | undefined): boolean {
  if (address === undefined) return false;
  return address === '::1' || /^(::ffff:)?127\./.test(address);
}
