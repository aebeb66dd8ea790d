import { JwtAuthenticator } from '../../../../../src/adapters/inbound/http/auth/jwt-authenticator.js';
import { startSelfSignedIssuer, type SelfSignedIssuer } from '../../../../e2e/auth/identity-providers.js';

const AUDIENCE = 'http://127.0.0.1:8091/mcp';

describe('JwtAuthenticator key discovery', () => {
  let issuer: SelfSignedIssuer;

  beforeEach(async () => {
    issuer = await startSelfSignedIssuer();
  });

  afterEach(async () => {
    await issuer.stop();
  });

  it('caches the JWKS, and refetches it when a token names an unknown kid (key rotation)', async () => {
    const authenticator = new JwtAuthenticator({ issuer: issuer.issuer, audience: AUDIENCE, requiredScopes: [] }, 0);
    const claims = { sub: 'agent', aud: AUDIENCE };
    expect(await authenticator.authenticate(await issuer.sign(claims))).toMatchObject({ ok: true, principal: { name: 'oauth:agent' } });
    expect(await authenticator.authenticate(await issuer.sign(claims))).toMatchObject({ ok: true });
    expect(issuer.jwksFetches).toBe(1);

    const rotatedToken = await issuer.sign(claims, { key: issuer.strangerKey, kid: 'rotated' });
    expect(await authenticator.authenticate(rotatedToken)).toMatchObject({ ok: false, reason: 'unknown_key' });
    await issuer.rotate();
    expect(await authenticator.authenticate(rotatedToken)).toMatchObject({ ok: true, principal: { name: 'oauth:agent' } });
    expect(issuer.jwksFetches).toBe(3);
  });

  it('refuses every token while the issuer publishes no metadata, without caching the failure', async () => {
    const authenticator = new JwtAuthenticator({ issuer: `${issuer.issuer}/nowhere`, audience: AUDIENCE, requiredScopes: [] });
    expect(await authenticator.authenticate(await issuer.sign({ sub: 'a', aud: AUDIENCE }))).toMatchObject({
      ok: false,
      reason: 'issuer_unavailable',
    });
  });
});
