import type { Principal } from '../../../../domain/principal.js';

/** Why a request was refused; also the log's `reason` (never the token). */
export type AuthFailureReason =
  | 'missing_token'
  | 'unknown_token'
  | 'invalid_signature'
  | 'unknown_key'
  | 'expired'
  | 'wrong_issuer'
  | 'wrong_audience'
  | 'bad_algorithm'
  | 'malformed'
  | 'insufficient_scope'
  | 'issuer_unavailable';

export type AuthOutcome =
  | { readonly ok: true; readonly principal: Principal }
  | { readonly ok: false; readonly reason: AuthFailureReason; readonly description: string };

/** Turns a bearer token into a Principal, or says why not. One implementation per auth.mode. */
export interface BearerAuthenticator {
  authenticate(token: string): Promise<AuthOutcome>;
}
