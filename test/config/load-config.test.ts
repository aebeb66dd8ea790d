import { mkdir, mkdtemp, realpath, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ConfigError } from '../../src/config/load-config.js';
import { loadConfig } from '../support/load-config.js';

let dir: string;

beforeEach(async () => {
  dir = await realpath(await mkdtemp(join(tmpdir(), 'mcp-fs-config-')));
  await mkdir(join(dir, 'ws'));
  await mkdir(join(dir, 'data'));
});

afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

async function writeConfig(yaml: string, name = 'config.yaml'): Promise<string> {
  const file = join(dir, name);
  await writeFile(file, yaml);
  return file;
}

const VALID = `
roots:
  - name: workspace
    path: ws
    allowed_tools: ["*"]
`;

function errorOf(run: () => unknown): ConfigError {
  try {
    run();
  } catch (error) {
    expect(error).toBeInstanceOf(ConfigError);
    expect((error as Error).message).not.toContain('\n');
    return error as ConfigError;
  }
  throw new Error('expected a ConfigError');
}

async function expectConfigError(yaml: string, expected: string, env: NodeJS.ProcessEnv = {}): Promise<void> {
  const file = await writeConfig(yaml);
  expect(errorOf(() => loadConfig(['--config', file], env)).message).toBe(expected);
}

describe('loadConfig: a valid file', () => {
  it('applies defaults and resolves a relative root path against the YAML file directory', async () => {
    const file = await writeConfig(VALID);
    const config = loadConfig(['--config', file], { XDG_STATE_HOME: join(dir, 'state') });
    expect(config).toEqual({
      host: '127.0.0.1',
      port: 8091,
      allowedHosts: ['localhost', '127.0.0.1', '[::1]'],
      logLevel: 'info',
      configFile: file,
      toolsets: ['root', 'editor', 'repo', 'changes'],
      settings: {
        maxFullReadSize: 1048576,
        maxResultBytes: 4194304,
        maxFileSize: 10485760,
        requireViewBeforeEdit: true,
        defaultRoot: 'workspace',
        search: { defaultTimeoutSeconds: 300, maxTimeoutSeconds: 600, defaultMaxResults: 100, maxResultsLimit: 10000, ignore: 'gitignore', index: { mode: 'auto', maxBytes: 268435456, minRootBytes: 33554432 } },
      },
      sessions: { idleTimeoutMs: 1_800_000, max: 1000, maxPerPrincipal: 100 },
      sessionStoreUrl: '',
      subscriptions: { maxPerSession: 256 },
      watches: { server: 0, perPrincipal: 0 },
      limits: { inflightRequestBytes: 256 * 1024 ** 2, inflightRequestBytesPerPrincipal: 128 * 1024 ** 2, bodyIdleSeconds: 10 },
      roots: [{ name: 'workspace', path: join(dir, 'ws'), allowedTools: ['*'] }],
      auth: { mode: 'none', allowUnauthenticated: false },
      metrics: { enabled: true },
      stateDir: join(dir, 'state', 'mcp-filesystem'),
      searchIndexDir: join(dir, 'state', 'mcp-filesystem', 'index'),
      journal: {
        dir: join(dir, 'state', 'mcp-filesystem', 'journal'),
        maxBytes: 1024 ** 3,
        maxFileBytes: 16 * 1024 ** 2,
        retentionHours: 168,
        redisKeyPrefix: 'mcp-fs:journal:',
      },
      confirm: { enabled: true, timeoutSeconds: 120 },
    });
  });

  it('reads confirm.enabled and confirm.timeout_s (issue 30.3), from the file and the environment', async () => {
    const file = await writeConfig(`${VALID}\nconfirm:\n  timeout_s: 5\n`);
    expect(loadConfig(['--config', file], {}).confirm).toEqual({ enabled: true, timeoutSeconds: 5 });
    expect(loadConfig(['--config', file], { MCP_FS_CONFIRM_ENABLED: 'false' }).confirm).toEqual({ enabled: false, timeoutSeconds: 5 });
  });

  it('realpaths a root given through a symlink (NFR-007)', async () => {
    await symlink(join(dir, 'ws'), join(dir, 'ws-link'));
    const file = await writeConfig(VALID.replace('path: ws', 'path: ws-link'));
    expect(loadConfig(['--config', file], {}).roots[0].path).toBe(join(dir, 'ws'));
  });

  it('reads every key from YAML', async () => {
    const file = await writeConfig(`
host: 127.0.0.2
port: 9000
max_full_read_size: 100
max_result_bytes: 300000
max_file_size: 200
require_view_before_edit: false
default_root: data
search: { timeout_seconds: 10, max_timeout_seconds: 20, max_results: 5, max_results_limit: 50, ignore: none, index: { mode: 'off', max_bytes: 4096, min_root_bytes: 0 } }
allowed_hosts: [Example.COM]
log_level: debug
sessions: { idle_timeout_seconds: 60, max: 7, max_per_principal: 3 }
session_store: { url: 'redis://redis:6379/2' }
roots:
  - { name: workspace, path: ${join(dir, 'ws')}, allowed_tools: [read_file, grep] }
  - { name: data, path: data, allowed_tools: [] }
`);
    const config = loadConfig(['--config', file], {});
    expect(config.host).toBe('127.0.0.2');
    expect(config.port).toBe(9000);
    expect(config.allowedHosts).toEqual(['example.com']);
    expect(config.logLevel).toBe('debug');
    expect(config.settings).toEqual({
      maxFullReadSize: 100,
      maxResultBytes: 300000,
      maxFileSize: 200,
      requireViewBeforeEdit: false,
      defaultRoot: 'data',
      search: { defaultTimeoutSeconds: 10, maxTimeoutSeconds: 20, defaultMaxResults: 5, maxResultsLimit: 50, ignore: 'none', index: { mode: 'off', maxBytes: 4096, minRootBytes: 0 } },
    });
    expect(config.sessions).toEqual({ idleTimeoutMs: 60_000, max: 7, maxPerPrincipal: 3 });
    expect(config.sessionStoreUrl).toBe('redis://redis:6379/2');
    expect(config.roots.map((root) => [root.name, root.allowedTools])).toEqual([
      ['workspace', ['read_file', 'grep']],
      ['data', []],
    ]);
  });

  it('adds a specific listen address to the default allowed hosts', async () => {
    const file = await writeConfig(`host: 10.1.2.3\nauth: { allow_unauthenticated: true }\n${VALID}`);
    expect(loadConfig(['--config', file], {}).allowedHosts).toEqual(['localhost', '127.0.0.1', '[::1]', '10.1.2.3']);
  });

  it('refuses a session store URL that is not redis://', async () => {
    const file = await writeConfig(`session_store: { url: 'http://redis:6379' }\n${VALID}`);
    expect(() => loadConfig(['--config', file], {})).toThrow(/session_store\.url: must be empty \(in-memory\) or a redis:\/\/ URL/);
  });

  it('accepts "*" in allowed_hosts when listening on every interface', async () => {
    const file = await writeConfig(`host: 0.0.0.0\nallowed_hosts: ["*"]\nauth: { allow_unauthenticated: true }\n${VALID}`);
    expect(loadConfig(['--config', file], {}).allowedHosts).toEqual(['*']);
  });
});

describe('loadConfig: precedence CLI > env > YAML > defaults', () => {
  it('takes env over YAML and CLI over env', async () => {
    const file = await writeConfig(`port: 9000\nmax_file_size: 300\n${VALID}`);
    const env = { MCP_FS_PORT: '9100', MCP_FS_MAX_FILE_SIZE: '400', MCP_FS_HOST: '127.0.0.3' };
    const config = loadConfig(['--config', file, '--port', '9200', '--max-file-size', '500'], env);
    expect(config.port).toBe(9200);
    expect(config.settings.maxFileSize).toBe(500);
    expect(config.host).toBe('127.0.0.3');

    expect(loadConfig(['--config', file], env).port).toBe(9100);
    expect(loadConfig(['--config', file], {}).port).toBe(9000);
  });

  it('reads every environment variable', async () => {
    const file = await writeConfig(`${VALID}  - { name: data, path: data, allowed_tools: ["*"] }\n`);
    const config = loadConfig([], {
      MCP_FS_CONFIG: file,
      MCP_FS_HOST: '0.0.0.0',
      MCP_FS_PORT: '0',
      MCP_FS_MAX_FULL_READ_SIZE: '11',
      MCP_FS_MAX_FILE_SIZE: '12',
      MCP_FS_REQUIRE_VIEW_BEFORE_EDIT: 'false',
      MCP_FS_DEFAULT_ROOT: 'data',
      MCP_FS_SEARCH_TIMEOUT_SECONDS: '13',
      MCP_FS_SEARCH_MAX_RESULTS: '14',
      MCP_FS_ALLOWED_HOSTS: 'mcp.example.com, localhost',
      MCP_FS_LOG_LEVEL: 'warn',
      MCP_FS_AUTH_ALLOW_UNAUTHENTICATED: 'true',
      MCP_FS_SESSIONS_IDLE_TIMEOUT_SECONDS: '15',
      MCP_FS_SESSIONS_MAX: '16',
      MCP_FS_SESSIONS_MAX_PER_PRINCIPAL: '17',
      MCP_FS_SESSION_STORE_URL: 'redis://127.0.0.1:6380/1',
    });
    expect(config).toMatchObject({
      sessions: { idleTimeoutMs: 15_000, max: 16, maxPerPrincipal: 17 },
      sessionStoreUrl: 'redis://127.0.0.1:6380/1',
      host: '0.0.0.0',
      port: 0,
      allowedHosts: ['mcp.example.com', 'localhost'],
      logLevel: 'warn',
      settings: {
        maxFullReadSize: 11,
        maxFileSize: 12,
        requireViewBeforeEdit: false,
        defaultRoot: 'data',
        search: { defaultTimeoutSeconds: 13, defaultMaxResults: 14 },
      },
    });
  });

  it('takes --config over MCP_FS_CONFIG', async () => {
    const file = await writeConfig(VALID);
    expect(loadConfig(['--config', file], { MCP_FS_CONFIG: join(dir, 'missing.yaml') }).configFile).toBe(file);
  });
});

describe('loadConfig: every bad config is one line naming the key and the reason', () => {
  it('no config file given for HTTP (client folders are for stdio only)', () => {
    expect(errorOf(() => loadConfig(['--http'], {})).message).toBe(
      'config error: config: no config file given (give directories: mcp-filesystem DIR..., or --config FILE, or MCP_FS_CONFIG)',
    );
  });

  it('config file missing', () => {
    const file = join(dir, 'nope.yaml');
    expect(errorOf(() => loadConfig(['--config', file], {})).message).toBe(`config error: config: file not found: ${file}`);
  });

  it('unparseable YAML', async () => {
    const file = await writeConfig('roots: [unclosed\n');
    expect(errorOf(() => loadConfig(['--config', file], {})).message).toMatch(/^config error: config: cannot load .*config\.yaml: .+/);
  });

  it('a YAML document that is not a mapping', async () => {
    const file = await writeConfig('- a\n- b\n');
    expect(errorOf(() => loadConfig(['--config', file], {})).message).toBe(
      `config error: config: cannot load ${file}: the file must hold a YAML mapping of config keys`,
    );
  });

  it('empty roots', () => expectConfigError('roots: []\n', 'config error: roots: at least one root is required'));
  it('no roots key', () => expectConfigError('port: 8091\n', 'config error: roots: at least one root is required'));

  it('E2E-081: duplicate root names', () =>
    expectConfigError(
      'roots:\n  - { name: data, path: ws, allowed_tools: ["*"] }\n  - { name: data, path: data, allowed_tools: ["*"] }\n',
      'config error: roots[1].name: duplicate root name "data"',
    ));

  it('missing root name', () =>
    expectConfigError('roots:\n  - { path: ws, allowed_tools: ["*"] }\n', 'config error: roots[0].name: is required and must be a non-empty string'));

  it('root name with a slash', () =>
    expectConfigError(
      'roots:\n  - { name: a/b, path: ws, allowed_tools: ["*"] }\n',
      `config error: roots[0].name: invalid root name "a/b" (use letters, digits, '.', '_' and '-', starting with a letter or digit)`,
    ));

  it('missing path', () =>
    expectConfigError('roots:\n  - { name: ws, allowed_tools: ["*"] }\n', 'config error: roots[0].path: is required and must be a non-empty string'));

  it('missing allowed_tools', () =>
    expectConfigError(
      'roots:\n  - { name: ws, path: ws }\n',
      'config error: roots[0].allowed_tools: is required and must be a list of tool names (["*"] allows every tool)',
    ));

  it('unknown key in a root', () =>
    expectConfigError(
      'roots:\n  - { name: ws, path: ws, allowed_tools: ["*"], readonly: true }\n',
      'config error: roots[0].readonly: unknown key (expected name, path or archive, allowed_tools)',
    ));

  it('E2E-082: root path does not exist', async () => {
    await expectConfigError(
      'roots:\n  - { name: ws, path: nowhere, allowed_tools: ["*"] }\n',
      `config error: roots[0].path: directory does not exist: ${join(dir, 'nowhere')}`,
    );
  });

  it('root path is a file', async () => {
    await writeFile(join(dir, 'file.txt'), 'x');
    await expectConfigError(
      'roots:\n  - { name: ws, path: file.txt, allowed_tools: ["*"] }\n',
      `config error: roots[0].path: not a directory: ${join(dir, 'file.txt')}`,
    );
  });

  it('E2E-083: unknown tool name in allowed_tools', () =>
    expectConfigError(
      'roots:\n  - { name: ws, path: ws, allowed_tools: [read_file, nonexistent_tool] }\n',
      'config error: roots[0].allowed_tools: unknown tool name "nonexistent_tool"',
    ));

  it('default_root that is not a root', () =>
    expectConfigError(`default_root: other\n${VALID}`, 'config error: default_root: "other" is not a configured root (roots: workspace)'));

  it('wrong type', () => expectConfigError(`port: eighty\n${VALID}`, 'config error: port: ports must be within range 0 - 65535'));

  it('a size with a unit', () => expectConfigError(`max_file_size: 10MB\n${VALID}`, 'config error: max_file_size: must be a positive integer'));

  it('a boolean that is not one', () =>
    expectConfigError(VALID, 'config error: require_view_before_edit: must be true or false', { MCP_FS_REQUIRE_VIEW_BEFORE_EDIT: 'maybe' }));

  it('unknown log level', () =>
    expectConfigError(`log_level: verbose\n${VALID}`, 'config error: log_level: must be one of the possible values: ["error","warn","info","debug"]'));

  it('unknown top-level key', () => expectConfigError(`max_read_size: 5\n${VALID}`, 'config error: max_read_size: unknown key'));

  it('unknown nested key', () => expectConfigError(`search: { timeout: 5 }\n${VALID}`, 'config error: search.timeout: unknown key'));

  it('search default above its ceiling', () =>
    expectConfigError(
      `search: { timeout_seconds: 700 }\n${VALID}`,
      'config error: search.timeout_seconds: must not exceed search.max_timeout_seconds (600)',
    ));

  it('allowed_hosts entry with a port', () =>
    expectConfigError(
      `allowed_hosts: ["localhost:8091"]\n${VALID}`,
      'config error: allowed_hosts[0]: "localhost:8091" is not a host name (no scheme or port; IPv6 in brackets; "*" allows any host)',
    ));

  it('listening on every interface without allowed_hosts', () =>
    expectConfigError(
      `host: 0.0.0.0\n${VALID}`,
      'config error: allowed_hosts: must be set when listening on 0.0.0.0: list the host names clients use to reach the server, or ["*"] to accept any Host header',
    ));

  it('unknown command-line flag', async () => {
    const file = await writeConfig(VALID);
    expect(() => loadConfig(['--config', file, '--prot', '1'], {})).toThrow(
      /^mcp-filesystem: Unknown option '--prot'.*\(see mcp-filesystem --help\)$/,
    );
  });

  it('an allowlist naming a tool of a disabled toolset', () =>
    expectConfigError(
      `toolsets: [root, editor]\n${VALID.replace(/allowed_tools: .*/, 'allowed_tools: [read_file, file_read]')}`,
      'config error: roots[0].allowed_tools: "file_read" belongs to toolset "repo", which is not enabled (toolsets: root, editor)',
    ));

  it('an unknown toolset', () =>
    expectConfigError(`toolsets: [root, shell]\n${VALID}`, 'config error: toolsets[1]: unknown toolset "shell" (expected root, editor, repo, changes)'));
});


describe('loadConfig: the change journal (issue 20)', () => {
  it('reads journal.* from YAML (a relative dir against the YAML directory) and turns it off with enabled: false', async () => {
    const file = await writeConfig(`${VALID}journal:\n  dir: state/journal\n  max_bytes: 5000\n  max_file_bytes: 100\n  retention_hours: 2\n`);
    expect(loadConfig(['--config', file], {}).journal).toEqual({ dir: join(dir, 'state/journal'), maxBytes: 5000, maxFileBytes: 100, retentionHours: 2, redisKeyPrefix: 'mcp-fs:journal:' });
    expect(loadConfig(['--config', file], { MCP_FS_JOURNAL_ENABLED: 'false' }).journal).toBeUndefined();
  });

  it('reads journal.redis_key_prefix from YAML or MCP_FS_JOURNAL_REDIS_KEY_PREFIX, and refuses one that is not a plain key prefix', async () => {
    const file = await writeConfig(`${VALID}journal:\n  redis_key_prefix: 'team-a:journal:'\n`);
    expect(loadConfig(['--config', file], {}).journal?.redisKeyPrefix).toBe('team-a:journal:');
    expect(loadConfig(['--config', file], { MCP_FS_JOURNAL_REDIS_KEY_PREFIX: 'team-b:' }).journal?.redisKeyPrefix).toBe('team-b:');
    await expectConfigError(`${VALID}journal:\n  redis_key_prefix: 'a b'\n`, 'config error: journal.redis_key_prefix: must be 1 to 64 letters, digits or : _ . - (such as mcp-fs:journal:)');
  });

  it('refuses a journal directory inside a root, however it is spelt', async () => {
    await symlink(join(dir, 'ws'), join(dir, 'ws-link'));
    await expectConfigError(`${VALID}journal:\n  dir: ws/.journal\n`, `config error: journal.dir: ${join(dir, 'ws/.journal')} is inside root "workspace"; put the journal outside every root`);
    await expectConfigError(`${VALID}journal:\n  dir: ws-link/deep/j\n`, `config error: journal.dir: ${join(dir, 'ws-link/deep/j')} is inside root "workspace"; put the journal outside every root`);
    await expectConfigError(`${VALID}journal:\n  dir: ws\n`, `config error: journal.dir: ${join(dir, 'ws')} is inside root "workspace"; put the journal outside every root`);
  });

  it('refuses max_file_bytes above max_bytes', () =>
    expectConfigError(`${VALID}journal:\n  max_bytes: 10\n  max_file_bytes: 11\n`, 'config error: journal.max_file_bytes: must not exceed journal.max_bytes (10)'));
});

describe('loadConfig: no DIR and no config file (stdio with the client\'s folders)', () => {
  it('starts with no roots, the working directory at /, and remembers --read-only for the folders to come', () => {
    const config = loadConfig([], {});
    expect(config).toMatchObject({ roots: [], clientRoots: { readOnly: false }, configFile: undefined });
    expect(config.settings.defaultRoot).toBe('');
    expect(loadConfig(['--read-only'], {}).clientRoots).toEqual({ readOnly: true });
  });

  it('never with a config file or DIR arguments', async () => {
    expect(loadConfig(['--config', await writeConfig(VALID)], {}).clientRoots).toBeUndefined();
    expect(loadConfig([dir], {}).clientRoots).toBeUndefined();
  });
});

describe('loadConfig: subscriptions', () => {
  it('max_per_session defaults to 256 and takes MCP_FS_SUBSCRIPTIONS_MAX_PER_SESSION; 0 is refused', () => {
    expect(loadConfig([], {}).subscriptions).toEqual({ maxPerSession: 256 });
    expect(loadConfig([], { MCP_FS_SUBSCRIPTIONS_MAX_PER_SESSION: '5' }).subscriptions).toEqual({ maxPerSession: 5 });
    expect(errorOf(() => loadConfig([], { MCP_FS_SUBSCRIPTIONS_MAX_PER_SESSION: '0' })).message).toMatch(/^config error: subscriptions\.max_per_session: /);
  });
});

describe('loadConfig: watch limits', () => {
  it('limits.watches and watches_per_principal default to 0 (derived from the OS limit at start-up) and take the environment', () => {
    expect(loadConfig([], {}).watches).toEqual({ server: 0, perPrincipal: 0 });
    expect(loadConfig([], { MCP_FS_LIMITS_WATCHES: '600', MCP_FS_LIMITS_WATCHES_PER_PRINCIPAL: '100' }).watches).toEqual({ server: 600, perPrincipal: 100 });
    expect(errorOf(() => loadConfig([], { MCP_FS_LIMITS_WATCHES: '-1' })).message).toMatch(/^config error: limits\.watches: /);
  });
});

describe('loadConfig: request limits', () => {
  it('defaults to 256 MiB in flight, half of it a principal, 10 s of body idle; takes the environment; the share follows the total unless set', () => {
    expect(loadConfig([], {}).limits).toEqual({ inflightRequestBytes: 268435456, inflightRequestBytesPerPrincipal: 134217728, bodyIdleSeconds: 10 });
    expect(loadConfig([], { MCP_FS_LIMITS_INFLIGHT_REQUEST_BYTES: '1000', MCP_FS_LIMITS_BODY_IDLE_SECONDS: '3' }).limits).toEqual({
      inflightRequestBytes: 1000,
      inflightRequestBytesPerPrincipal: 500,
      bodyIdleSeconds: 3,
    });
    expect(loadConfig([], { MCP_FS_LIMITS_INFLIGHT_REQUEST_BYTES_PER_PRINCIPAL: '700' }).limits?.inflightRequestBytesPerPrincipal).toBe(700);
    expect(errorOf(() => loadConfig([], { MCP_FS_LIMITS_BODY_IDLE_SECONDS: '0' })).message).toMatch(/^config error: limits\.body_idle_seconds: /);
  });
});
