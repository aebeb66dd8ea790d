import type convict from 'convict';

/** A static token entry as written in YAML or MCP_FS_AUTH_TOKENS (JSON). */
export interface RawAuthToken {
  name: string;
  sha256: string;
  roots?: string[];
  read_only?: boolean;
}

export interface RawAuthConfig {
  mode: 'none' | 'tokens' | 'oauth';
  allow_unauthenticated: boolean;
  tokens: RawAuthToken[];
  oauth: {
    issuer: string;
    audience: string;
    required_scopes: string[];
    roots_claim: string;
  };
}

const TOKEN_KEYS = new Set(['name', 'sha256', 'roots', 'read_only']);
const SHA256_HEX = /^[0-9a-f]{64}$/i;

function isMapping(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** Arrays in environment variables are JSON (a comma list is also accepted for plain string lists). */
function parseJsonEnv(value: string): unknown {
  try {
    return JSON.parse(value);
  } catch {
    return value;
  }
}

function validateToken(entry: unknown, at: string, seen: Set<string>): void {
  if (!isMapping(entry)) throw new Error(`${at}: must be a mapping with name and sha256`);
  const unknownKey = Object.keys(entry).find((key) => !TOKEN_KEYS.has(key));
  if (unknownKey !== undefined) throw new Error(`${at}.${unknownKey}: unknown key (expected name, sha256, roots, read_only)`);
  const { name, sha256, roots, read_only: readOnly } = entry;
  if (typeof name !== 'string' || name.trim() === '') throw new Error(`${at}.name: is required and must be a non-empty string`);
  if (seen.has(name)) throw new Error(`${at}.name: duplicate token name "${name}"`);
  seen.add(name);
  // Security: the message never repeats the value, which might be a pasted token rather than its hash.
  if (typeof sha256 !== 'string' || !SHA256_HEX.test(sha256)) {
    throw new Error(`${at}.sha256: must be the 64 hex characters of the token's SHA-256 (printf %s "$TOKEN" | sha256sum)`);
  }
  if (roots !== undefined && (!Array.isArray(roots) || roots.some((root) => typeof root !== 'string'))) {
    throw new Error(`${at}.roots: must be a list of root names`);
  }
  if (readOnly !== undefined && typeof readOnly !== 'boolean') throw new Error(`${at}.read_only: must be true or false`);
}

export const authFormats: Record<string, convict.Format> = {
  'auth-tokens': {
    validate: (value: unknown) => {
      if (!Array.isArray(value)) throw new Error('must be a list of {name, sha256, roots?, read_only?} (JSON in MCP_FS_AUTH_TOKENS)');
      const seen = new Set<string>();
      value.forEach((entry, index) => validateToken(entry, `[${index}]`, seen));
    },
    coerce: parseJsonEnv,
  },
  'string-list': {
    validate: (value: unknown) => {
      if (!Array.isArray(value) || value.some((item) => typeof item !== 'string' || item === '')) {
        throw new Error('must be a list of non-empty strings');
      }
    },
    coerce: (value: string) => {
      const parsed = parseJsonEnv(value);
      return Array.isArray(parsed) ? parsed : value.split(/[\s,]+/).filter((item) => item !== '');
    },
  },
};

export const authSchema: convict.Schema<RawAuthConfig> = {
  mode: {
    doc: 'HTTP authentication: none, tokens (static bearer tokens) or oauth (OAuth 2.1 resource server)',
    format: ['none', 'tokens', 'oauth'],
    default: 'none',
    env: 'MCP_FS_AUTH_MODE',
  },
  allow_unauthenticated: {
    doc: 'Allow mode none on a non-loopback host (logs a WARN at every start)',
    format: 'flag',
    default: false,
    env: 'MCP_FS_AUTH_ALLOW_UNAUTHENTICATED',
  },
  tokens: {
    doc: 'mode tokens: [{name, sha256, roots?, read_only?}]; only the SHA-256 of each token is stored',
    format: 'auth-tokens',
    default: [],
    env: 'MCP_FS_AUTH_TOKENS',
    sensitive: true,
  },
  oauth: {
    issuer: { doc: 'mode oauth: the authorization server (its metadata and JWKS are discovered)', format: String, default: '', env: 'MCP_FS_AUTH_OAUTH_ISSUER' },
    audience: { doc: 'mode oauth: the resource URI tokens must be issued for (aud)', format: String, default: '', env: 'MCP_FS_AUTH_OAUTH_AUDIENCE' },
    required_scopes: { doc: 'mode oauth: scopes every token must carry', format: 'string-list', default: [], env: 'MCP_FS_AUTH_OAUTH_REQUIRED_SCOPES' },
    roots_claim: { doc: 'mode oauth: a claim listing the roots a token may use (empty: all roots)', format: String, default: '', env: 'MCP_FS_AUTH_OAUTH_ROOTS_CLAIM' },
  },
};
