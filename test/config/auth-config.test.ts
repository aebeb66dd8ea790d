import { mkdir, mkdtemp, realpath, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ConfigError } from '../../src/config/load-config.js';
import { loadConfig } from '../support/load-config.js';

const HASH = 'a'.repeat(64);
let dir: string;

beforeEach(async () => {
  dir = await realpath(await mkdtemp(join(tmpdir(), 'mcp-fs-auth-config-')));
  await mkdir(join(dir, 'ws'));
  await mkdir(join(dir, 'docs'));
});

afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

const ROOTS = `
roots:
  - { name: workspace, path: ws, allowed_tools: ["*"] }
  - { name: docs, path: docs, allowed_tools: ["*"] }
`;

async function load(yaml: string, env: NodeJS.ProcessEnv = {}, argv: string[] = []) {
  const file = join(dir, 'config.yaml');
  await writeFile(file, `${yaml}\n${ROOTS}`);
  return loadConfig(['--config', file, ...argv], env);
}

async function errorOf(yaml: string, env: NodeJS.ProcessEnv = {}): Promise<string> {
  try {
    await load(yaml, env);
  } catch (error) {
    expect(error).toBeInstanceOf(ConfigError);
    return (error as Error).message;
  }
  throw new Error('expected a ConfigError');
}

describe('auth config', () => {
  it('defaults to mode none on loopback', async () => {
    expect((await load('')).auth).toEqual({ mode: 'none', allowUnauthenticated: false });
  });

  it('reads static tokens from YAML (hash lower-cased, roots and read_only kept)', async () => {
    const config = await load(`auth:
  mode: tokens
  tokens:
    - { name: ci-agent, sha256: "${'A'.repeat(64)}", roots: [workspace], read_only: true }
    - { name: admin, sha256: "${HASH}" }`);
    expect(config.auth).toEqual({
      mode: 'tokens',
      tokens: [
        { name: 'ci-agent', sha256: 'a'.repeat(64), roots: ['workspace'], readOnly: true },
        { name: 'admin', sha256: HASH, roots: undefined, readOnly: false },
      ],
    });
  });

  it('reads every auth key from the environment (arrays as JSON)', async () => {
    const tokens = await load('', {
      MCP_FS_AUTH_MODE: 'tokens',
      MCP_FS_AUTH_TOKENS: JSON.stringify([{ name: 'env-agent', sha256: HASH, roots: ['docs'] }]),
    });
    expect(tokens.auth).toEqual({ mode: 'tokens', tokens: [{ name: 'env-agent', sha256: HASH, roots: ['docs'], readOnly: false }] });
    const oauth = await load('', {
      MCP_FS_AUTH_MODE: 'oauth',
      MCP_FS_AUTH_OAUTH_ISSUER: 'https://idp.example.com/realms/files',
      MCP_FS_AUTH_OAUTH_AUDIENCE: 'https://files.example.com/mcp',
      MCP_FS_AUTH_OAUTH_REQUIRED_SCOPES: '["files","mcp"]',
      MCP_FS_AUTH_OAUTH_ROOTS_CLAIM: 'mcp_roots',
    });
    expect(oauth.auth).toEqual({
      mode: 'oauth',
      oauth: {
        issuer: 'https://idp.example.com/realms/files',
        audience: 'https://files.example.com/mcp',
        requiredScopes: ['files', 'mcp'],
        rootsClaim: 'mcp_roots',
      },
    });
    const open = await load('', { MCP_FS_HOST: '0.0.0.0', MCP_FS_ALLOWED_HOSTS: '*', MCP_FS_AUTH_ALLOW_UNAUTHENTICATED: 'true' });
    expect(open.auth).toEqual({ mode: 'none', allowUnauthenticated: true });
  });

  it('refuses mode none on a non-loopback host with one line naming the key', async () => {
    expect(await errorOf('host: 0.0.0.0\nallowed_hosts: ["*"]')).toBe(
      'config error: auth.mode: is none while host 0.0.0.0 is not loopback: anyone who reaches the port could read and write ' +
        'every root; set auth.mode to tokens or oauth, or auth.allow_unauthenticated: true to accept that',
    );
  });

  it('lets stdio run whatever the host says (stdio has no network listener)', async () => {
    expect((await load('host: 0.0.0.0\nallowed_hosts: ["*"]', {}, ['--stdio'])).auth?.mode).toBe('none');
  });

  it.each([
    ['auth: { mode: tokens }', 'config error: auth.tokens: mode tokens needs at least one {name, sha256} entry'],
    [`auth: { mode: tokens, tokens: [{ name: a, sha256: "secret-token" }] }`, "config error: auth.tokens[0].sha256: must be the 64 hex characters of the token's SHA-256 (printf %s \"$TOKEN\" | sha256sum)"],
    [`auth: { mode: tokens, tokens: [{ name: a, sha256: "${HASH}" }, { name: a, sha256: "${HASH}" }] }`, 'config error: auth.tokens[1].name: duplicate token name "a"'],
    [`auth: { mode: tokens, tokens: [{ name: a, sha256: "${HASH}", scope: x }] }`, 'config error: auth.tokens[0].scope: unknown key (expected name, sha256, roots, read_only)'],
    [`auth: { mode: tokens, tokens: [{ name: a, sha256: "${HASH}", roots: [nowhere] }] }`, 'config error: auth.tokens[0].roots: "nowhere" is not a configured root'],
    ['auth: { mode: ldap }', 'config error: auth.mode: must be one of the possible values: ["none","tokens","oauth"]'],
    ['auth: { mode: oauth }', 'config error: auth.oauth.issuer: is required when auth.mode is oauth'],
    ['auth: { mode: oauth, oauth: { issuer: "http://idp.example.com", audience: "https://x/mcp" } }', 'config error: auth.oauth.issuer: must be an https URL (http only on loopback)'],
    ['auth: { mode: oauth, oauth: { issuer: "https://idp.example.com" } }', 'config error: auth.oauth.audience: is required when auth.mode is oauth'],
  ])('refuses %s', async (yaml, expected) => {
    expect(await errorOf(yaml)).toBe(expected);
  });

  it('reads metrics.enabled from YAML and MCP_FS_METRICS_ENABLED', async () => {
    expect((await load('metrics: { enabled: false }')).metrics).toEqual({ enabled: false });
    expect((await load('', { MCP_FS_METRICS_ENABLED: 'false' })).metrics).toEqual({ enabled: false });
  });

  it('never repeats a pasted token in the error', async () => {
    expect(await errorOf('auth: { mode: tokens, tokens: [{ name: a, sha256: "my-real-secret" }] }')).not.toContain('my-real-secret');
  });
});
