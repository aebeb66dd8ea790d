import { createServer, type RequestListener, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { exportJWK, generateKeyPair, SignJWT, type JWK, type JWTPayload, type CryptoKey } from 'jose';
import Provider from 'oidc-provider';

/** An HTTP server on 127.0.0.1 and a free port whose handler is set once the URL is known. */
async function listenOnLoopback(): Promise<{ server: Server; url: string; handle(listener: RequestListener): void }> {
  let listener: RequestListener = (_req, res) => res.end();
  const server = createServer((req, res) => listener(req, res));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return { server, url: `http://127.0.0.1:${port}`, handle: (next) => (listener = next) };
}

async function close(server: Server): Promise<void> {
  await new Promise<void>((resolve) => {
    server.close(() => resolve());
    server.closeAllConnections();
  });
}

export interface OidcClient {
  readonly id: string;
  readonly secret: string;
  /** Extra claims put into the JWT access tokens issued to this client (e.g. a roots claim). */
  readonly claims?: Record<string, unknown>;
}

export interface RealOpenIdProvider {
  readonly issuer: string;
  /** Client credentials grant at the token endpoint; a JWT access token for `resource`. */
  token(client: OidcClient, options: { resource: string; scope?: string }): Promise<string>;
  stop(): Promise<void>;
}

/**
 * A real OpenID provider (the oidc-provider package) on loopback: client credentials grant,
 * resource indicators, JWT access tokens whose audience is the resource and whose scope is 'files'.
 */
export async function startOpenIdProvider(clients: readonly OidcClient[]): Promise<RealOpenIdProvider> {
  const { server, url, handle } = await listenOnLoopback();
  const claimsOf = new Map(clients.map((client) => [client.id, client.claims]));
  const signing = await generateKeyPair('RS256', { extractable: true });
  const provider = new Provider(url, {
    jwks: { keys: [{ ...(await exportJWK(signing.privateKey)), kid: 'idp-key', alg: 'RS256', use: 'sig' }] },
    ttl: { ClientCredentials: 300 },
    clients: clients.map((client) => ({
      client_id: client.id,
      client_secret: client.secret,
      grant_types: ['client_credentials'],
      redirect_uris: [],
      response_types: [],
      scope: 'files',
    })),
    scopes: ['openid', 'files'],
    features: {
      devInteractions: { enabled: false },
      clientCredentials: { enabled: true },
      resourceIndicators: {
        enabled: true,
        getResourceServerInfo: async () => ({ scope: 'files', accessTokenFormat: 'jwt', accessTokenTTL: 300 }),
      },
    },
    extraTokenClaims: async (_ctx: unknown, token: unknown) => claimsOf.get((token as { clientId?: string }).clientId ?? '') ?? undefined,
  });
  handle(provider.callback());
  return {
    issuer: url,
    async token(client, options) {
      const body = new URLSearchParams({ grant_type: 'client_credentials', resource: options.resource });
      if (options.scope !== undefined) body.set('scope', options.scope);
      const response = await fetch(`${url}/token`, {
        method: 'POST',
        headers: { authorization: `Basic ${Buffer.from(`${client.id}:${client.secret}`).toString('base64')}` },
        body,
      });
      const answer = (await response.json()) as { access_token?: string; error?: string; error_description?: string };
      if (!answer.access_token) throw new Error(`token request failed: ${answer.error}: ${answer.error_description}`);
      return answer.access_token;
    },
    stop: () => close(server),
  };
}

export interface SelfSignedIssuer {
  readonly issuer: string;
  /** The public JWK it publishes (kid 'published'). */
  readonly publicJwk: JWK;
  /** A JWT signed with the published key, with these claims (iss defaults to the issuer). */
  sign(payload: JWTPayload, options?: { key?: CryptoKey; kid?: string; expiresIn?: string | number }): Promise<string>;
  /** A second RSA key pair, never published (until `rotate`). */
  readonly strangerKey: CryptoKey;
  /** Key rotation: from now on the JWKS also publishes the stranger key, as kid 'rotated'. */
  rotate(): Promise<void>;
  /** How many times the JWKS was fetched. */
  readonly jwksFetches: number;
  stop(): Promise<void>;
}

/**
 * A tiny issuer (OpenID metadata + JWKS) whose key the test holds, for the tokens a real
 * provider will not issue: expired, forged signature, unknown kid.
 */
export async function startSelfSignedIssuer(): Promise<SelfSignedIssuer> {
  const { server, url, handle } = await listenOnLoopback();
  const published = await generateKeyPair('RS256', { extractable: true });
  const stranger = await generateKeyPair('RS256', { extractable: true });
  const publicJwk = { ...(await exportJWK(published.publicKey)), kid: 'published', alg: 'RS256', use: 'sig' };
  const keys: JWK[] = [publicJwk];
  let jwksFetches = 0;
  handle((req, res) => {
    res.setHeader('content-type', 'application/json');
    if (req.url === '/.well-known/openid-configuration') res.end(JSON.stringify({ issuer: url, jwks_uri: `${url}/jwks` }));
    else if (req.url === '/jwks') {
      jwksFetches += 1;
      res.end(JSON.stringify({ keys }));
    }
    else {
      res.statusCode = 404;
      res.end('{}');
    }
  });
  return {
    issuer: url,
    publicJwk,
    strangerKey: stranger.privateKey,
    async rotate() {
      keys.push({ ...(await exportJWK(stranger.publicKey)), kid: 'rotated', alg: 'RS256', use: 'sig' });
    },
    get jwksFetches() {
      return jwksFetches;
    },
    async sign(payload, options = {}) {
      const jwt = new SignJWT({ iss: url, ...payload })
        .setProtectedHeader({ alg: 'RS256', kid: options.kid ?? 'published' })
        .setIssuedAt();
      if (payload.exp === undefined) jwt.setExpirationTime(options.expiresIn ?? '5m');
      return jwt.sign(options.key ?? published.privateKey);
    },
    stop: () => close(server),
  };
}
