import { createHash, timingSafeEqual } from 'node:crypto';
import type { StaticTokenConfig } from '../../../../config/app-config.js';
import { type Principal, principalName } from '../../../../domain/principal.js';
import type { AuthOutcome, BearerAuthenticator } from './authenticator.js';

interface KnownToken {
  readonly digest: Buffer;
  readonly principal: Principal;
}

/**
 * auth.mode tokens. Security: only the SHA-256 of each token is configured, so a leaked config
 * file grants nothing; the presented token is hashed and compared with every configured hash in
 * constant time (timingSafeEqual, no early exit), so response times reveal no prefix of a hash.
 */
export class StaticTokenAuthenticator implements BearerAuthenticator {
  private readonly known: readonly KnownToken[];

  constructor(tokens: readonly StaticTokenConfig[]) {
    this.known = tokens.map((token) => ({
      digest: Buffer.from(token.sha256, 'hex'),
      principal: Object.freeze({ name: principalName('token', token.name), roots: token.roots ? [...token.roots] : undefined, readOnly: token.readOnly }),
    }));
  }

  async authenticate(token: string): Promise<AuthOutcome> {
    const digest = createHash('sha256').update(token, 'utf8').digest();
    let match: Principal | undefined;
    for (const known of this.known) {
      if (timingSafeEqual(digest, known.digest) && match === undefined) match = known.principal;
    }
    return match ? { ok: true, principal: match } : { ok: false, reason: 'unknown_token', description: 'the bearer token is not valid' };
  }
}
