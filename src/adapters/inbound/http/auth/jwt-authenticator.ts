import { createRemoteJWKSet, errors, jwtVerify, type JWTPayload, type JWTVerifyGetKey } from 'jose';
import type { OAuthConfig } from '../../../../config/app-config.js';
import { principalName } from '../../../../domain/principal.js';
import type { AuthFailureReason, AuthOutcome, BearerAuthenticator } from './authenticator.js';

/**
 * Security: asymmetric algorithms only. `none` is never accepted by jose, and leaving out
 * every HS* algorithm defeats the trick of signing with the issuer's *public* key as an HMAC secret.
 */
export const ALLOWED_ALGORITHMS = ['RS256', 'RS384', 'RS512', 'PS256', 'PS384', 'PS512', 'ES256', 'ES384', 'ES512', 'EdDSA'];
/** Small tolerance for clock skew between us and the issuer, on exp and nbf. */
const CLOCK_TOLERANCE_SECONDS = 30;

/**
 * auth.mode oauth: the server is an OAuth 2.1 resource server. The issuer's metadata gives the
 * jwks_uri; jose's remote JWK set caches the keys and refetches them when a token names an
 * unknown `kid` (key rotation), with a cooldown so forged kids cannot hammer the issuer.
 */
export class JwtAuthenticator implements BearerAuthenticator {
  private keys?: Promise<JWTVerifyGetKey>;

  constructor(
    private readonly config: OAuthConfig,
    /** Least time between two JWKS fetches caused by unknown kids (jose's default, 30 s). */
    private readonly jwksCooldownMs = 30_000,
  ) {}

  async authenticate(token: string): Promise<AuthOutcome> {
    let keys: JWTVerifyGetKey;
    try {
      keys = await this.keySet();
    } catch {
      this.keys = undefined; // retried by the next request
      return failure('issuer_unavailable', 'the authorization server metadata could not be fetched');
    }
    let payload: JWTPayload;
    try {
      ({ payload } = await jwtVerify(token, keys, {
        issuer: this.config.issuer,
        audience: this.config.audience,
        algorithms: ALLOWED_ALGORITHMS,
        clockTolerance: CLOCK_TOLERANCE_SECONDS,
        requiredClaims: ['exp'],
      }));
    } catch (error) {
      return fromJoseError(error);
    }
    const subject = subjectOf(payload);
    if (subject === undefined) return failure('malformed', 'the token has no sub or client_id claim');
    const missing = this.config.requiredScopes.filter((scope) => !scopesOf(payload).has(scope));
    if (missing.length > 0) return failure('insufficient_scope', `the token lacks the scope ${missing.join(' ')}`);
    return { ok: true, principal: Object.freeze({ name: principalName('oauth', subject), roots: this.rootsOf(payload), readOnly: false }) };
  }

  /**
   * Security: when roots_claim is configured, a token without that claim gets no root at all
   * rather than every root; an issuer that forgot the claim must not widen the grant.
   */
  private rootsOf(payload: JWTPayload): readonly string[] | undefined {
    const claim = this.config.rootsClaim;
    if (claim === undefined) return undefined;
    const value = payload[claim];
    if (Array.isArray(value)) return value.filter((root): root is string => typeof root === 'string');
    if (typeof value === 'string') return value.split(/\s+/).filter((root) => root !== '');
    return [];
  }

  private keySet(): Promise<JWTVerifyGetKey> {
    this.keys ??= discoverJwksUri(this.config.issuer).then((uri) => createRemoteJWKSet(new URL(uri), { cooldownDuration: this.jwksCooldownMs }));
    return this.keys;
  }
}

/** RFC 8414 / OpenID Discovery: the issuer's metadata, which must name the same issuer. */
export async function discoverJwksUri(issuer: string): Promise<string> {
  const base = issuer.replace(/\/+$/, '');
  const url = new URL(issuer);
  const path = url.pathname === '/' ? '' : url.pathname.replace(/\/+$/, '');
  const candidates = [`${base}/.well-known/openid-configuration`, `${url.origin}/.well-known/oauth-authorization-server${path}`];
  for (const candidate of candidates) {
    const response = await fetch(candidate, { headers: { accept: 'application/json' }, signal: AbortSignal.timeout(5000) }).catch(() => undefined);
    if (!response?.ok) continue;
    const metadata = (await response.json()) as { issuer?: unknown; jwks_uri?: unknown };
    // Security: metadata for another issuer would let its keys sign tokens we accept.
    if (metadata.issuer !== issuer) throw new Error(`metadata at ${candidate} names another issuer`);
    if (typeof metadata.jwks_uri !== 'string') throw new Error(`metadata at ${candidate} has no jwks_uri`);
    return metadata.jwks_uri;
  }
  throw new Error(`no authorization server metadata found for ${issuer}`);
}

function subjectOf(payload: JWTPayload): string | undefined {
  if (typeof payload.sub === 'string' && payload.sub !== '') return payload.sub;
  const clientId = payload.client_id;
  return typeof clientId === 'string' && clientId !== '' ? clientId : undefined;
}

function scopesOf(payload: JWTPayload): Set<string> {
  const { scope, scp } = payload;
  if (typeof scope === 'string') return new Set(scope.split(' ').filter((item) => item !== ''));
  if (Array.isArray(scp)) return new Set(scp.filter((item): item is string => typeof item === 'string'));
  return new Set();
}

function failure(reason: AuthFailureReason, description: string): AuthOutcome {
  return { ok: false, reason, description };
}

/** jose's error classes, mapped to a reason; the description never echoes the token. */
function fromJoseError(error: unknown): AuthOutcome {
  if (error instanceof errors.JWTExpired) return failure('expired', 'the token has expired');
  if (error instanceof errors.JWTClaimValidationFailed) {
    if (error.claim === 'iss') return failure('wrong_issuer', 'the token was issued by another authorization server');
    if (error.claim === 'aud') return failure('wrong_audience', 'the token was not issued for this resource');
    return failure('malformed', `the token's ${error.claim} claim is not valid`);
  }
  if (error instanceof errors.JWSSignatureVerificationFailed) return failure('invalid_signature', 'the token signature is not valid');
  if (error instanceof errors.JWKSNoMatchingKey) return failure('unknown_key', 'the token is signed with a key the issuer does not publish');
  if (error instanceof errors.JOSEAlgNotAllowed || error instanceof errors.JOSENotSupported) {
    return failure('bad_algorithm', 'the token uses a signing algorithm that is not allowed');
  }
  if (error instanceof errors.JWKSTimeout || error instanceof errors.JWKSInvalid) {
    return failure('issuer_unavailable', 'the issuer keys could not be fetched');
  }
  return failure('malformed', 'the token is not a valid JWT');
}
