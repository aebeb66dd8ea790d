import convict from 'convict';
import type { Settings } from '../domain/settings.js';
import { DEFAULT_MAX_RESULT_BYTES } from '../domain/result-budget.js';
import { authSchema, type RawAuthConfig } from './auth-schema.js';
import { registerConfigFormats } from './config-formats.js';
import type { RequestLimits, SessionLimits } from './app-config.js';
import { TOOLSETS } from '../domain/tool-facts.js';

/** A root entry as written in the YAML file (snake_case, before realpath). */
export interface RawRoot {
  name: string;
  /** A directory; or else `archive`, a .tar / .tar.gz file served read-only. */
  path?: string;
  archive?: string;
  allowed_tools: string[];
}

/** The shape convict produces from the schema below. */
export interface RawConfig {
  host: string;
  port: number;
  max_full_read_size: number;
  max_result_bytes: number;
  max_file_size: number;
  require_view_before_edit: boolean;
  default_root: string;
  search: {
    timeout_seconds: number;
    max_timeout_seconds: number;
    max_results: number;
    max_results_limit: number;
    ignore: 'gitignore' | 'none';
    index: { mode: 'auto' | 'off'; max_bytes: number; min_root_bytes: number };
  };
  allowed_hosts: string[];
  log_level: string;
  sessions: {
    idle_timeout_seconds: number;
    max: number;
    max_per_principal: number;
  };
  session_store: { url: string };
  subscriptions: { max_per_session: number };
  limits: {
    inflight_request_bytes: number;
    inflight_request_bytes_per_principal: number;
    body_idle_seconds: number;
    watches: number;
    watches_per_principal: number;
  };
  toolsets: string[];
  roots: RawRoot[];
  auth: RawAuthConfig;
  metrics: { enabled: boolean };
  journal: { enabled: boolean; dir: string; max_bytes: number; max_file_bytes: number; retention_hours: number; redis_key_prefix: string };
  confirm: { enabled: boolean; timeout_s: number };
}

registerConfigFormats();

const DEFAULTS = {
  maxFullReadSize: 1048576,
  maxResultBytes: DEFAULT_MAX_RESULT_BYTES,
  maxFileSize: 10485760,
  requireViewBeforeEdit: true,
  search: { defaultTimeoutSeconds: 300, maxTimeoutSeconds: 600, defaultMaxResults: 100, maxResultsLimit: 10000, ignore: 'gitignore', index: { mode: 'auto', maxBytes: 256 * 1024 * 1024, minRootBytes: 32 * 1024 * 1024 } },
} as const;

/** The settings a config file that sets nothing gets (the test server starts from these too). */
export function defaultSettings(defaultRoot: string): Settings {
  return { ...DEFAULTS, search: { ...DEFAULTS.search }, defaultRoot };
}

export const JOURNAL_DEFAULTS = { maxBytes: 1024 * 1024 * 1024, maxFileBytes: 16 * 1024 * 1024, retentionHours: 168, redisKeyPrefix: 'mcp-fs:journal:' } as const;

const SESSION_DEFAULTS = { idleTimeoutSeconds: 1800, max: 1000, maxPerPrincipal: 100 } as const;

/** The session limits a config file that sets nothing gets (the test server starts from these too). */
export function defaultSessionLimits(): SessionLimits {
  return { idleTimeoutMs: SESSION_DEFAULTS.idleTimeoutSeconds * 1000, max: SESSION_DEFAULTS.max, maxPerPrincipal: SESSION_DEFAULTS.maxPerPrincipal };
}

const REQUEST_LIMIT_DEFAULTS = { inflightRequestBytes: 256 * 1024 * 1024, bodyIdleSeconds: 10 } as const;

/** The request admission limits of a config that sets none; the share per principal is half the total. */
export function defaultRequestLimits(): RequestLimits {
  const total = REQUEST_LIMIT_DEFAULTS.inflightRequestBytes;
  return { inflightRequestBytes: total, inflightRequestBytesPerPrincipal: total / 2, bodyIdleSeconds: REQUEST_LIMIT_DEFAULTS.bodyIdleSeconds };
}

/** The configured request limits, or the defaults for a hand-built config without them. */
export function requestLimitsOf(config: { readonly limits?: RequestLimits }): RequestLimits {
  return config.limits ?? defaultRequestLimits();
}

/** Every key; precedence is CLI flag > environment variable > YAML file > default. */
export const configSchema: convict.Schema<RawConfig> = {
  host: { doc: 'Listen address', format: String, default: '127.0.0.1', env: 'MCP_FS_HOST', arg: 'host' },
  port: { doc: 'Listen port (0 picks a free port)', format: 'port', default: 8091, env: 'MCP_FS_PORT', arg: 'port' },
  max_full_read_size: {
    doc: 'read_file without offset/limit refuses larger files (bytes)',
    format: 'positive-int',
    default: DEFAULTS.maxFullReadSize,
    env: 'MCP_FS_MAX_FULL_READ_SIZE',
  },
  max_result_bytes: {
    doc: 'JSON-escaped bytes of content one tool or resource result carries; longer windows come back truncated',
    format: 'result-bytes',
    default: DEFAULTS.maxResultBytes,
    env: 'MCP_FS_MAX_RESULT_BYTES',
  },
  max_file_size: {
    doc: 'Editor tools refuse larger files (bytes)',
    format: 'positive-int',
    default: DEFAULTS.maxFileSize,
    env: 'MCP_FS_MAX_FILE_SIZE',
    arg: 'max-file-size',
  },
  require_view_before_edit: {
    doc: 'str_replace/create_file over an existing file need a prior view in the session',
    format: 'flag',
    default: DEFAULTS.requireViewBeforeEdit,
    env: 'MCP_FS_REQUIRE_VIEW_BEFORE_EDIT',
  },
  default_root: {
    doc: 'Root the editor working directory starts in (empty: the first root)',
    format: String,
    default: '',
    env: 'MCP_FS_DEFAULT_ROOT',
  },
  search: {
    timeout_seconds: {
      doc: 'grep/glob timeout when a call gives none',
      format: 'positive-int',
      default: DEFAULTS.search.defaultTimeoutSeconds,
      env: 'MCP_FS_SEARCH_TIMEOUT_SECONDS',
    },
    max_timeout_seconds: { doc: 'Largest timeout a call may ask for', format: 'positive-int', default: DEFAULTS.search.maxTimeoutSeconds },
    max_results: {
      doc: 'grep/glob result cap when a call gives none',
      format: 'positive-int',
      default: DEFAULTS.search.defaultMaxResults,
      env: 'MCP_FS_SEARCH_MAX_RESULTS',
    },
    max_results_limit: { doc: 'Largest result cap a call may ask for', format: 'positive-int', default: DEFAULTS.search.maxResultsLimit },
    ignore: {
      doc: 'What grep, glob, list_folder (depth > 1) and file_list skip when a call does not say: gitignore (.git/ and what ignore files ignore) or none',
      format: ['gitignore', 'none'],
      default: DEFAULTS.search.ignore,
      env: 'MCP_FS_SEARCH_IGNORE',
    },
    index: {
      mode: {
        doc: 'Per-root trigram index grep narrows its reads with, built in the background and checked file by file (inode, size, mtime) on every search: auto (for roots holding at least min_root_bytes of text) or off',
        format: ['auto', 'off'],
        default: DEFAULTS.search.index.mode,
        env: 'MCP_FS_SEARCH_INDEX',
      },
      max_bytes: { doc: 'Memory one root\'s index may take; files past it are read by every grep', format: 'positive-int', default: DEFAULTS.search.index.maxBytes },
      min_root_bytes: { doc: 'Text a root must hold for auto to keep an index (below it a scan is about as fast)', format: 'nat', default: DEFAULTS.search.index.minRootBytes },
    },
  },
  allowed_hosts: {
    doc: 'Host header names accepted on HTTP (empty: loopback names, plus the listen host if it is not a wildcard)',
    format: 'host-list',
    default: [],
    env: 'MCP_FS_ALLOWED_HOSTS',
  },
  sessions: {
    idle_timeout_seconds: {
      doc: 'A session with no request for this long is closed and its state dropped',
      format: 'positive-int',
      default: SESSION_DEFAULTS.idleTimeoutSeconds,
      env: 'MCP_FS_SESSIONS_IDLE_TIMEOUT_SECONDS',
    },
    max: { doc: 'Open HTTP sessions (across every replica); an initialize beyond gets 503', format: 'positive-int', default: SESSION_DEFAULTS.max, env: 'MCP_FS_SESSIONS_MAX' },
    max_per_principal: {
      doc: 'Open HTTP sessions one principal may hold; an initialize beyond gets 503',
      format: 'positive-int',
      default: SESSION_DEFAULTS.maxPerPrincipal,
      env: 'MCP_FS_SESSIONS_MAX_PER_PRINCIPAL',
    },
  },
  subscriptions: {
    max_per_session: {
      doc: 'resources/subscribe: subscriptions one session may hold; one more is refused',
      format: 'positive-int',
      default: 256,
      env: 'MCP_FS_SUBSCRIPTIONS_MAX_PER_SESSION',
    },
  },
  limits: {
    inflight_request_bytes: {
      doc: 'Bytes of request bodies (HTTP) and lines (stdio) being read or held at once across the server; a request past it waits up to 2 s, then gets HTTP 503 with Retry-After',
      format: 'positive-int',
      default: REQUEST_LIMIT_DEFAULTS.inflightRequestBytes,
      env: 'MCP_FS_LIMITS_INFLIGHT_REQUEST_BYTES',
    },
    inflight_request_bytes_per_principal: {
      doc: 'The same per principal, for the bytes of each request past its first 64 KiB (0: half of inflight_request_bytes)',
      format: 'nat',
      default: 0,
      env: 'MCP_FS_LIMITS_INFLIGHT_REQUEST_BYTES_PER_PRINCIPAL',
    },
    body_idle_seconds: {
      doc: 'An HTTP request body that sends nothing for this long is dropped (HTTP 408) and its connection closed',
      format: 'positive-int',
      default: REQUEST_LIMIT_DEFAULTS.bodyIdleSeconds,
      env: 'MCP_FS_LIMITS_BODY_IDLE_SECONDS',
    },
    watches: {
      doc: 'Folder watches (inotify) resources/subscribe may hold across the server; past it a subscribe is refused (0: half the OS limit fs.inotify.max_user_watches read at start-up, at most 65536; 4096 where the OS has none to read)',
      format: 'nat',
      default: 0,
      env: 'MCP_FS_LIMITS_WATCHES',
    },
    watches_per_principal: {
      doc: 'The same per principal (0: half of watches)',
      format: 'nat',
      default: 0,
      env: 'MCP_FS_LIMITS_WATCHES_PER_PRINCIPAL',
    },
  },
  session_store: {
    url: {
      doc: 'Where session state lives: empty keeps it in process memory; redis://host:port/db shares it between replicas',
      format: 'session-store-url',
      default: '',
      env: 'MCP_FS_SESSION_STORE_URL',
      sensitive: true,
    },
  },
  log_level: { doc: 'Log level', format: ['error', 'warn', 'info', 'debug'], default: 'info', env: 'MCP_FS_LOG_LEVEL' },
  toolsets: {
    doc: 'Tool families exposed: root (list_roots and the root-scoped tools), editor (view, str_replace, create_file, change_directory), repo (file_*), changes (list_changes, undo_changes)',
    format: 'toolsets',
    default: [...TOOLSETS],
    env: 'MCP_FS_TOOLSETS',
    arg: 'toolsets',
  },
  roots: { doc: 'Named root directories (path) or read-only .tar/.tar.gz archives (archive) with their tool allowlists', format: 'roots', default: [], sensitive: true },
  auth: authSchema,
  metrics: {
    enabled: { doc: 'Serve GET /metrics (Prometheus text format)', format: 'flag', default: true, env: 'MCP_FS_METRICS_ENABLED' },
  },
  journal: {
    enabled: { doc: 'Record every change so list_changes can show it and undo_changes take it back', format: 'flag', default: true, env: 'MCP_FS_JOURNAL_ENABLED' },
    dir: {
      doc: 'Where records and before-images live (empty: journal/ in the private state directory, the first of $XDG_STATE_HOME/mcp-filesystem, ~/.local/state/mcp-filesystem, <tmpdir>/mcp-fs-inflight-<uid> outside every root); never inside a root',
      format: String,
      default: '',
      env: 'MCP_FS_JOURNAL_DIR',
    },
    max_bytes: { doc: 'Bytes the journal directory holds in all (before-images, records, begin log); the oldest go first', format: 'positive-int', default: JOURNAL_DEFAULTS.maxBytes, env: 'MCP_FS_JOURNAL_MAX_BYTES' },
    max_file_bytes: {
      doc: 'A before-image larger than this is not kept (the change is listed, not undoable)',
      format: 'positive-int',
      default: JOURNAL_DEFAULTS.maxFileBytes,
      env: 'MCP_FS_JOURNAL_MAX_FILE_BYTES',
    },
    retention_hours: { doc: 'Changes older than this are forgotten', format: 'positive-int', default: JOURNAL_DEFAULTS.retentionHours, env: 'MCP_FS_JOURNAL_RETENTION_HOURS' },
    redis_key_prefix: {
      doc: 'With session_store.url set, the journal\'s records live in that Redis under this key prefix; two deployments sharing one Redis set two prefixes',
      format: 'redis-key-prefix',
      default: JOURNAL_DEFAULTS.redisKeyPrefix,
      env: 'MCP_FS_JOURNAL_REDIS_KEY_PREFIX',
    },
  },
  confirm: {
    enabled: {
      doc: 'Ask the person (MCP elicitation, when the client can) before a change the journal could not undo; off for unattended deployments',
      format: 'flag',
      default: true,
      env: 'MCP_FS_CONFIRM_ENABLED',
    },
    timeout_s: { doc: 'Seconds to wait for that answer; unanswered, the change is not made (DECLINED)', format: 'positive-int', default: 120, env: 'MCP_FS_CONFIRM_TIMEOUT_S' },
  },
};
