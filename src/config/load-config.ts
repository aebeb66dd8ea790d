import { statSync } from 'node:fs';
import { dirname, isAbsolute, join, resolve } from 'node:path';
import convict from 'convict';
import type { ToolCatalog } from '../domain/tool-catalog.js';
import type { Toolset } from '../domain/tool-facts.js';
import { ToolPolicy } from '../domain/tool-policy.js';
import type { AppConfig, JournalConfig, RootConfig } from './app-config.js';
import { resolveAuth } from './auth-config.js';
import { ConfigError } from './config-error.js';
import { configSchema, type RawConfig, type RawRoot } from './schema.js';
import { chooseStateDir, isWithin, overlappingRoot, realpathOfNearest, refuseLink, type StateDirChoice } from './state-dir.js';
import { zeroConfigRoots } from './zero-config-roots.js';
import type { RootProbes } from './root-probe.js';

export { ConfigError };

/** What the command line asks of the configuration: the CLI parses it (src/cli), config only reads it. */
export interface ConfigRequest {
  readonly config?: string;
  /** Zero-config form: each DIR becomes a root. Empty with --config. */
  readonly dirs: readonly string[];
  /** Serve stdio rather than Streamable HTTP. */
  readonly stdio: boolean;
  /** No DIR, no config file, not --http: the folders the client shares are the roots. */
  readonly clientRoots: boolean;
  readonly readOnly: boolean;
}

/**
 * Reads the YAML file named by --config or MCP_FS_CONFIG (or, with DIR arguments, makes one root
 * per directory; with neither, leaves the roots to the client), applies env and flags on top,
 * validates everything. `argv` is the raw command line, for the flags the schema reads itself (--port...).
 * Whether each root is there is asked of `probes` (the adapters that serve them); the tool names an
 * allowlist may hold, of `tools` (the catalog the MCP adapter's specs make: config keeps no list).
 */
export function loadConfig(commandLine: ConfigRequest, argv: readonly string[], env: NodeJS.ProcessEnv, probes: RootProbes, tools: ToolCatalog): AppConfig {
  const zeroConfig = commandLine.dirs.length > 0 || commandLine.clientRoots;
  const configFile = zeroConfig ? undefined : locateConfigFile(commandLine.config ?? env.MCP_FS_CONFIG);

  const config = convict<RawConfig>(configSchema, { args: [...argv], env: { ...env } });
  if (configFile === undefined) {
    config.load({ roots: zeroConfigRoots(commandLine.dirs, commandLine.readOnly, tools) });
  } else {
    try {
      config.loadFile(configFile);
    } catch (error) {
      throw new ConfigError('config', `cannot load ${configFile}: ${firstLine(error).replace(/:$/, '')}`);
    }
  }
  try {
    config.validate({ allowed: 'strict' });
  } catch (error) {
    throw fromConvictMessage(firstLine(error));
  }
  const raw = config.getProperties();
  checkToolNames(raw.roots, tools);
  // Client folders arrive after start-up; every other form needs its roots now.
  if (!commandLine.clientRoots && raw.roots.length === 0) throw new ConfigError('roots', 'at least one root is required');

  const baseDirectory = configFile === undefined ? process.cwd() : dirname(configFile);
  const roots = raw.roots.map((root, index) => resolveRoot(root, index, baseDirectory, probes));
  const toolsets = raw.toolsets as Toolset[];
  // The DIR form writes its own allowlists; the container drops tools of disabled toolsets from them.
  if (configFile !== undefined) checkAllowlistsAgainstToolsets(raw.roots, toolsets, tools);
  const allowedHosts = resolveAllowedHosts(raw.host, raw.allowed_hosts);
  const state = chooseStateDir(env, roots, commandLine.clientRoots);
  return {
    host: raw.host,
    port: raw.port,
    allowedHosts,
    auth: resolveAuth(raw.auth, raw.host, roots, !commandLine.stdio),
    metrics: { enabled: raw.metrics.enabled },
    logLevel: raw.log_level,
    configFile,
    toolsets,
    settings: {
      maxFullReadSize: raw.max_full_read_size,
      maxResultBytes: raw.max_result_bytes,
      maxFileSize: raw.max_file_size,
      requireViewBeforeEdit: raw.require_view_before_edit,
      defaultRoot: resolveDefaultRoot(raw.default_root, roots),
      search: checkSearchLimits(raw.search),
    },
    sessions: {
      idleTimeoutMs: raw.sessions.idle_timeout_seconds * 1000,
      max: raw.sessions.max,
      maxPerPrincipal: raw.sessions.max_per_principal,
    },
    sessionStoreUrl: raw.session_store.url,
    subscriptions: { maxPerSession: raw.subscriptions.max_per_session },
    watches: { server: raw.limits.watches, perPrincipal: raw.limits.watches_per_principal },
    limits: {
      inflightRequestBytes: raw.limits.inflight_request_bytes,
      inflightRequestBytesPerPrincipal: raw.limits.inflight_request_bytes_per_principal || Math.floor(raw.limits.inflight_request_bytes / 2),
      bodyIdleSeconds: raw.limits.body_idle_seconds,
    },
    roots,
    stateDir: state.dir,
    // Security: never inside a root (a tool would read every root's trigrams there, or forge an index).
    ...(state.outsideRoots ? { searchIndexDir: join(state.dir, 'index') } : {}),
    journal: resolveJournal(raw.journal, roots, baseDirectory, state),
    confirm: { enabled: raw.confirm.enabled, timeoutSeconds: raw.confirm.timeout_s },
    ...(commandLine.clientRoots ? { clientRoots: { readOnly: commandLine.readOnly } } : {}),
  };
}

/**
 * Security: the journal holds before-images of files from every root; inside a root (or holding
 * one), a tool could read or overwrite them (and an undo would write what a client put there), so
 * start-up refuses it. An explicit journal.dir is never moved elsewhere: it is the operator's word.
 * The default is journal/ in the private state directory, the first candidate outside every root.
 */
function resolveJournal(raw: RawConfig['journal'], roots: readonly RootConfig[], baseDirectory: string, state: StateDirChoice): JournalConfig | undefined {
  if (!raw.enabled) return undefined;
  if (raw.dir === '' && !state.outsideRoots) {
    throw new ConfigError(
      'journal.dir',
      `the default journal directory would be inside a root (tried ${state.tried.join(', ')}); set journal.dir (MCP_FS_JOURNAL_DIR) to a directory outside every root, or journal.enabled: false (MCP_FS_JOURNAL_ENABLED=false)`,
    );
  }
  const configured = raw.dir === '' ? join(state.dir, 'journal') : isAbsolute(raw.dir) ? raw.dir : resolve(baseDirectory, raw.dir);
  refuseLink(configured, 'journal.dir', 'the journal directory');
  const dir = realpathOfNearest(configured);
  const root = overlappingRoot(dir, roots);
  if (root !== undefined) {
    const where = isWithin(dir, root.path) ? 'is inside' : 'holds';
    throw new ConfigError('journal.dir', `${configured} ${where} root "${root.name}"; put the journal outside every root`);
  }
  if (raw.max_file_bytes > raw.max_bytes) throw new ConfigError('journal.max_file_bytes', `must not exceed journal.max_bytes (${raw.max_bytes})`);
  return { dir, maxBytes: raw.max_bytes, maxFileBytes: raw.max_file_bytes, retentionHours: raw.retention_hours, redisKeyPrefix: raw.redis_key_prefix };
}

/** An allowlist names tools the catalog holds (or `*`): a typo fails the start-up (NFR-025). */
function checkToolNames(roots: readonly RawRoot[], tools: ToolCatalog): void {
  const policy = new ToolPolicy(tools);
  roots.forEach((root, index) => {
    const [unknown] = policy.unknownNames(root.allowed_tools);
    if (unknown !== undefined) throw new ConfigError(`roots[${index}].allowed_tools`, `unknown tool name "${unknown}"`);
  });
}

/** An allowlist may only name tools the enabled toolsets expose, so a typo'd deployment fails loudly. */
function checkAllowlistsAgainstToolsets(roots: readonly RawRoot[], toolsets: readonly Toolset[], tools: ToolCatalog): void {
  roots.forEach((root, index) => {
    for (const tool of root.allowed_tools) {
      const toolset = tools.toolsetOf(tool);
      if (toolset !== undefined && !toolsets.includes(toolset)) {
        throw new ConfigError(
          `roots[${index}].allowed_tools`,
          `"${tool}" belongs to toolset "${toolset}", which is not enabled (toolsets: ${toolsets.join(', ')})`,
        );
      }
    }
  });
}

function locateConfigFile(given: string | undefined): string {
  if (given === undefined || given === '') {
    throw new ConfigError('config', 'no config file given (give directories: mcp-filesystem DIR..., or --config FILE, or MCP_FS_CONFIG)');
  }
  const file = resolve(given);
  let isFile: boolean;
  try {
    isFile = statSync(file).isFile();
  } catch {
    throw new ConfigError('config', `file not found: ${file}`);
  }
  if (!isFile) throw new ConfigError('config', `not a regular file: ${file}`);
  return file;
}

/** Turns the first line of convict's report into `key: reason`. */
function fromConvictMessage(line: string): ConfigError {
  const undeclared = /^configuration param '(.+)' not declared in the schema$/.exec(line);
  if (undeclared) return new ConfigError(undeclared[1], 'unknown key');
  const missing = /^configuration param '(.+)' missing from config/.exec(line);
  if (missing) return new ConfigError(missing[1], 'missing (is its parent a mapping?)');

  const separator = line.indexOf(': ');
  if (separator < 0) return new ConfigError('config', line);
  let key = line.slice(0, separator);
  let reason = line.slice(separator + 2).replace(/: value was .*$/, '');
  // Custom formats prefix the reason with the position inside the value, e.g. `[1].name: ...`.
  const position = /^(\[\d+\][\w.[\]]*): /.exec(reason);
  if (position) {
    key += position[1];
    reason = reason.slice(position[0].length);
  }
  return new ConfigError(key, reason.trim());
}

function resolveRoot(root: RawRoot, index: number, configDirectory: string, probes: RootProbes): RootConfig {
  const archive = root.archive !== undefined;
  const key = `roots[${index}].${archive ? 'archive' : 'path'}`;
  const given = root.archive ?? root.path ?? '';
  const configured = isAbsolute(given) ? given : resolve(configDirectory, given);
  // The adapter that will serve the root says whether it is there (and where it really is).
  const found = archive ? probes.archive(configured) : probes.directory(configured);
  if ('problem' in found) throw new ConfigError(key, found.problem);
  // Security: an archive root is read-only: no write tool is allowed on it, whatever the allowlist says.
  return { name: root.name, path: found.realPath, allowedTools: [...root.allowed_tools], ...(archive ? { archive: true } : {}) };
}

function resolveDefaultRoot(configured: string, roots: readonly RootConfig[]): string {
  // Client folders are not known yet: the working directory starts at / (or the named root once shared).
  if (roots.length === 0) return configured;
  if (configured === '') return roots[0].name;
  if (!roots.some((root) => root.name === configured)) {
    throw new ConfigError('default_root', `"${configured}" is not a configured root (roots: ${roots.map((root) => root.name).join(', ')})`);
  }
  return configured;
}

function checkSearchLimits(search: RawConfig['search']) {
  if (search.timeout_seconds > search.max_timeout_seconds) {
    throw new ConfigError('search.timeout_seconds', `must not exceed search.max_timeout_seconds (${search.max_timeout_seconds})`);
  }
  if (search.max_results > search.max_results_limit) {
    throw new ConfigError('search.max_results', `must not exceed search.max_results_limit (${search.max_results_limit})`);
  }
  return {
    defaultTimeoutSeconds: search.timeout_seconds,
    maxTimeoutSeconds: search.max_timeout_seconds,
    defaultMaxResults: search.max_results,
    maxResultsLimit: search.max_results_limit,
    ignore: search.ignore,
    index: { mode: search.index.mode, maxBytes: search.index.max_bytes, minRootBytes: search.index.min_root_bytes },
  };
}

const LOOPBACK_NAMES = ['localhost', '127.0.0.1', '[::1]'];
const WILDCARD_HOSTS = new Set(['0.0.0.0', '::', '[::]']);

/**
 * Security: the Host allowlist is the DNS-rebinding guard. On loopback the defaults are the
 * loopback names; on a wildcard address nobody can guess which names clients use, so the
 * operator must list them (or write "*" and accept the risk) instead of getting an open door.
 */
function resolveAllowedHosts(host: string, configured: readonly string[]): string[] {
  if (configured.length > 0) return configured.map((name) => name.toLowerCase());
  if (WILDCARD_HOSTS.has(host)) {
    throw new ConfigError(
      'allowed_hosts',
      `must be set when listening on ${host}: list the host names clients use to reach the server, or ["*"] to accept any Host header`,
    );
  }
  const listenName = host.includes(':') && !host.startsWith('[') ? `[${host}]` : host.toLowerCase();
  return LOOPBACK_NAMES.includes(listenName) ? [...LOOPBACK_NAMES] : [...LOOPBACK_NAMES, listenName];
}

function firstLine(error: unknown): string {
  // Not `instanceof Error`: errors from Node built-ins may come from another realm (e.g. under jest).
  const message = typeof error === 'object' && error !== null && 'message' in error ? String(error.message) : String(error);
  return message.split('\n')[0].trim();
}

function firstSentence(error: unknown): string {
  return firstLine(error).split('. ')[0];
}
