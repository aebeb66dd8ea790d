import { base64url, exportSPKI, importJWK, SignJWT, type CryptoKey } from 'jose';
import { callTool } from '../../support/mcp.js';
import { startTestServer, type TestServer } from '../../support/server.js';
import { postMcp, PING } from '../../support/raw-mcp.js';
import { startOpenIdProvider, startSelfSignedIssuer, type OidcClient, type RealOpenIdProvider, type SelfSignedIssuer } from './identity-providers.js';

/** The resource URI tokens are issued for (the `aud`); an identifier, not dialled by anyone. */
const RESOURCE = 'http://127.0.0.1:8091/mcp';
const AGENT: OidcClient = { id: 'ci-agent', secret: 'ci-agent-secret-0123456789abcdef' };
const DOCS_AGENT: OidcClient = { id: 'docs-agent', secret: 'docs-agent-secret-0123456789abcd', claims: { mcp_roots: ['docs'] } };
const ROOTS = [{ name: 'workspace' }, { name: 'docs' }];

function oauthServer(issuer: string): Promise<TestServer> {
  return startTestServer({
    roots: ROOTS,
    auth: { mode: 'oauth', oauth: { issuer, audience: RESOURCE, requiredScopes: ['files'], rootsClaim: 'mcp_roots' } },
  });
}

async function challengeOf(server: TestServer, bearer?: string): Promise<{ status: number; challenge: string; message: string }> {
  const response = await postMcp(server.url, { bearer });
  const body = (await response.json()) as { error: { message: string } };
  return { status: response.status, challenge: response.headers.get('www-authenticate') ?? '', message: body.error.message };
}

describe('auth.mode oauth against a real OpenID provider (oidc-provider, client credentials, JWT access tokens)', () => {
  let idp: RealOpenIdProvider;
  let server: TestServer;

  beforeAll(async () => {
    idp = await startOpenIdProvider([AGENT, DOCS_AGENT]);
    server = await oauthServer(idp.issuer);
  });

  afterAll(async () => {
    await server?.stop();
    await idp?.stop();
  });

  it('answers a request without a token with 401 and a challenge pointing at the protected-resource metadata', async () => {
    const { status, challenge } = await challengeOf(server);
    expect(status).toBe(401);
    expect(challenge).toBe(
      'Bearer realm="mcp-filesystem", scope="files", resource_metadata="http://127.0.0.1:8091/.well-known/oauth-protected-resource"',
    );
  });

  it('serves the RFC 9728 metadata document (root and path-suffixed URLs)', async () => {
    for (const path of ['/.well-known/oauth-protected-resource', '/.well-known/oauth-protected-resource/mcp']) {
      const response = await fetch(`${server.baseUrl}${path}`);
      expect(response.status).toBe(200);
      expect(await response.json()).toEqual({
        resource: RESOURCE,
        authorization_servers: [idp.issuer],
        scopes_supported: ['files'],
        bearer_methods_supported: ['header'],
        resource_name: 'mcp-filesystem',
      });
    }
  });

  it('accepts a valid token through the SDK client; the call log names its subject', async () => {
    const token = await idp.token(AGENT, { resource: RESOURCE, scope: 'files' });
    const client = await server.connect({ bearer: token });
    const roots = await callTool(client, 'list_roots', {});
    // roots_claim is configured and this token carries none: no root rather than every root.
    expect(roots.structured.roots).toEqual([]);
    await callTool(client, 'read_file', { root: 'workspace', path: 'a.txt' });
    const call = server.logger.withMessage('tool call').find((entry) => entry.fields.tool === 'read_file');
    expect(call?.fields.principal).toBe('oauth:ci-agent');
    expect(JSON.stringify(server.logger.entries)).not.toContain(token);
  });

  it('narrows the roots to the token roots claim', async () => {
    const client = await server.connect({ bearer: await idp.token(DOCS_AGENT, { resource: RESOURCE, scope: 'files' }) });
    expect((await callTool(client, 'list_roots', {})).structured.roots.map((root: { name: string }) => root.name)).toEqual(['docs']);
    expect((await callTool(client, 'write_file', { root: 'docs', path: 'n.md', content: 'x' })).isError).toBe(false);
    expect((await callTool(client, 'read_file', { root: 'workspace', path: 'n.md' })).text).toMatch(/^UNKNOWN_ROOT: /);
  });

  it('refuses a token issued for another resource (wrong audience)', async () => {
    const token = await idp.token(AGENT, { resource: 'http://127.0.0.1:9999/other', scope: 'files' });
    const { status, challenge } = await challengeOf(server, token);
    expect(status).toBe(401);
    expect(challenge).toContain('error="invalid_token", error_description="the token was not issued for this resource"');
  });

  it('answers a valid token without the required scope with 403 insufficient_scope', async () => {
    const token = await idp.token(AGENT, { resource: RESOURCE });
    const { status, challenge, message } = await challengeOf(server, token);
    expect(status).toBe(403);
    expect(challenge).toContain('error="insufficient_scope"');
    expect(challenge).toContain('scope="files"');
    expect(message).toBe('Forbidden: the token lacks the scope files');
  });

  it('gives another principal 404 on a session it did not open (no hijack)', async () => {
    const opened = await postMcp(server.url, { bearer: await idp.token(AGENT, { resource: RESOURCE, scope: 'files' }) });
    const sessionId = opened.headers.get('mcp-session-id') ?? '';
    await opened.body?.cancel();
    expect(sessionId).not.toBe('');
    const other = await idp.token(DOCS_AGENT, { resource: RESOURCE, scope: 'files' });
    expect((await postMcp(server.url, { bearer: other, sessionId, body: PING })).status).toBe(404);
    const same = await postMcp(server.url, { bearer: await idp.token(AGENT, { resource: RESOURCE, scope: 'files' }), sessionId, body: PING });
    expect(same.status).toBe(200);
    await same.body?.cancel();
  });
});

describe('auth.mode oauth: tokens a real provider would not issue', () => {
  let issuer: SelfSignedIssuer;
  let server: TestServer;
  const claims = { sub: 'forger', aud: RESOURCE, scope: 'files' };

  beforeAll(async () => {
    issuer = await startSelfSignedIssuer();
    server = await oauthServer(issuer.issuer);
  });

  afterAll(async () => {
    await server?.stop();
    await issuer?.stop();
  });

  async function reasonFor(token: string): Promise<string> {
    const { status, challenge } = await challengeOf(server, token);
    expect(status).toBe(401);
    return /error_description="([^"]*)"/.exec(challenge)?.[1] ?? challenge;
  }

  it('accepts its own well-formed token (the control case)', async () => {
    const response = await postMcp(server.url, { bearer: await issuer.sign(claims) });
    expect(response.status).toBe(200);
    await response.body?.cancel();
  });

  it('refuses an expired token', async () => {
    const now = Math.floor(Date.now() / 1000);
    expect(await reasonFor(await issuer.sign({ ...claims, exp: now - 120, iat: now - 600 }))).toBe('the token has expired');
  });

  it('refuses a token from another issuer', async () => {
    expect(await reasonFor(await issuer.sign({ ...claims, iss: 'http://127.0.0.1:1' }))).toBe('the token was issued by another authorization server');
  });

  it('refuses a forged signature under the published kid', async () => {
    expect(await reasonFor(await issuer.sign(claims, { key: issuer.strangerKey }))).toBe('the token signature is not valid');
  });

  it('refuses a key the issuer does not publish', async () => {
    expect(await reasonFor(await issuer.sign(claims, { key: issuer.strangerKey, kid: 'stranger' }))).toBe(
      'the token is signed with a key the issuer does not publish',
    );
  });

  it('refuses alg none', async () => {
    const header = base64url.encode(JSON.stringify({ alg: 'none', typ: 'JWT' }));
    const payload = base64url.encode(JSON.stringify({ ...claims, iss: issuer.issuer, exp: Math.floor(Date.now() / 1000) + 300 }));
    expect(await reasonFor(`${header}.${payload}.`)).toBe('the token uses a signing algorithm that is not allowed');
  });

  it('refuses HS256 signed with the public key as the HMAC secret', async () => {
    const pem = await exportSPKI((await importJWK(issuer.publicJwk, 'RS256')) as CryptoKey);
    const forged = await new SignJWT({ ...claims, iss: issuer.issuer })
      .setProtectedHeader({ alg: 'HS256', kid: 'published' })
      .setExpirationTime('5m')
      .sign(new TextEncoder().encode(pem));
    expect(await reasonFor(forged)).toBe('the token uses a signing algorithm that is not allowed');
  });

  it('refuses garbage', async () => {
    expect(await reasonFor('not.a.jwt')).toBe('the token is not a valid JWT');
  });
});
