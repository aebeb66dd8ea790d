import type { AuthConfig, RootConfig } from './app-config.js';
import type { RawAuthConfig } from './auth-schema.js';
import { ConfigError } from './config-error.js';

const LOOPBACK_HOSTS = new Set(['127.0.0.1', 'localhost', '::1', '[::1]']);

export function isLoopbackHost(host: string): boolean {
  return LOOPBACK_HOSTS.has(host.toLowerCase()) || /^127\.\d+\.\d+\.\d+$/.test(host);
}

/**
 * Security: mode none on an address others can reach would be an open file server, so it is
 * refused unless the operator opts in with auth.allow_unauthenticated (a WARN at every start).
 */
export function resolveAuth(raw: RawAuthConfig, host: string, roots: readonly RootConfig[], httpServed: boolean): AuthConfig {
  const rootNames = new Set(roots.map((root) => root.name));
  switch (raw.mode) {
    case 'none':
      if (httpServed && !isLoopbackHost(host) && !raw.allow_unauthenticated) {
        throw new ConfigError(
          'auth.mode',
          `is none while host ${host} is not loopback: anyone who reaches the port could read and write every root; ` +
            'set auth.mode to tokens or oauth, or auth.allow_unauthenticated: true to accept that',
        );
      }
      return { mode: 'none', allowUnauthenticated: raw.allow_unauthenticated };
    case 'tokens': {
      if (raw.tokens.length === 0) throw new ConfigError('auth.tokens', 'mode tokens needs at least one {name, sha256} entry');
      const tokens = raw.tokens.map((token, index) => {
        const unknown = token.roots?.find((root) => !rootNames.has(root));
        if (unknown !== undefined) throw new ConfigError(`auth.tokens[${index}].roots`, `"${unknown}" is not a configured root`);
        return { name: token.name, sha256: token.sha256.toLowerCase(), roots: token.roots, readOnly: token.read_only ?? false };
      });
      return { mode: 'tokens', tokens };
    }
    case 'oauth': {
      const { issuer, audience, required_scopes: requiredScopes, roots_claim: rootsClaim } = raw.oauth;
      checkUrl('auth.oauth.issuer', issuer);
      checkUrl('auth.oauth.audience', audience);
      return { mode: 'oauth', oauth: { issuer, audience, requiredScopes, rootsClaim: rootsClaim === '' ? undefined : rootsClaim } };
    }
  }
}

function checkUrl(key: string, value: string): void {
  if (value === '') throw new ConfigError(key, 'is required when auth.mode is oauth');
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw new ConfigError(key, `"${value}" is not a URL`);
  }
  // Security: tokens and keys fetched over plain HTTP could be swapped on the way, except on loopback.
  if (url.protocol !== 'https:' && !(url.protocol === 'http:' && isLoopbackHost(url.hostname))) {
    throw new ConfigError(key, 'must be an https URL (http only on loopback)');
  }
}
