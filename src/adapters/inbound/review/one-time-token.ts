import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import { UNRESTRICTED_PRINCIPAL } from '../../../domain/principal.js';
import type { AuthOutcome, BearerAuthenticator } from '../http/auth/authenticator.js';

/**
 * `mcp-filesystem review`: one random token for this run only, which the printed URL carries in its
 * fragment. It stands for the local operator, who sees every change as a stdio server's list_changes
 * does. Security: compared by SHA-256 in constant time; never logged; gone when the process ends.
 */
export class OneTimeTokenAuthenticator implements BearerAuthenticator {
  readonly token = randomBytes(32).toString('base64url');
  private readonly digest = createHash('sha256').update(this.token).digest();

  async authenticate(token: string): Promise<AuthOutcome> {
    const presented = createHash('sha256').update(token, 'utf8').digest();
    return timingSafeEqual(presented, this.digest)
      ? { ok: true, principal: UNRESTRICTED_PRINCIPAL }
      : { ok: false, reason: 'unknown_token', description: 'the bearer token is not this review\'s' };
  }
}
