import { parseArgs } from 'node:util';
import type { ConfigRequest } from '../config/load-config.js';
import type { AppConfig } from '../config/app-config.js';

/** What the process was asked to do, before any config is read (stdio is the zero-config default, or --stdio). */
export interface CommandLine extends ConfigRequest {
  readonly help: boolean;
  readonly version: boolean;
  /** `mcp-filesystem review ...`: serve the /changes page on loopback, not the tools. */
  readonly review: boolean;
  /** --port was given (review listens on a free port otherwise). */
  readonly portGiven: boolean;
}

/** The first argument that makes the process serve the /changes page instead of the tools. */
export const REVIEW_COMMAND = 'review';

export const USAGE_LINE = 'usage: mcp-filesystem [options] DIR [DIR...]  |  mcp-filesystem --config FILE [options]';

export const HELP = `${USAGE_LINE}
       mcp-filesystem review [--port N] (DIR [DIR...] | --config FILE)

Serves sandboxed file tools over MCP. With DIR arguments (no config file) each DIR becomes a root
named after its base name (repeats get -2, -3...), every tool is allowed and the server talks stdio.
With neither DIR arguments nor a config file it talks stdio and serves the folders the client shares
(MCP roots), named by the same rule; until the client shares one, tools answer NO_ROOTS.

Options:
  --config FILE          YAML config file (roots, allowlists, limits); excludes DIR arguments
  --read-only            DIR form and client folders: allow just the tools that never change a file
  --http                 DIR form: serve Streamable HTTP instead of stdio
  --stdio                config form: serve stdio instead of Streamable HTTP
  --host HOST            HTTP listen address (default 127.0.0.1)
  --port N               HTTP listen port (default 8091; 0 picks a free port)
  --toolsets LIST        tool families to expose, comma-separated: root,editor,repo,changes (default all)
  --max-file-size BYTES  editor tools refuse larger files (default 10485760)
  --help                 print this help

mcp-filesystem review serves the page of the journal's changes (diffs, undo) on 127.0.0.1 with the same
config and journal, and prints its URL, which carries a one-time token in its fragment.
  --help                 print this help
  --version              print the version

Environment variables (a flag wins over the variable, the variable over the config file):
  MCP_FS_CONFIG                     config file (as --config)
  MCP_FS_HOST, MCP_FS_PORT          as --host, --port
  MCP_FS_TOOLSETS                   as --toolsets
  MCP_FS_ALLOWED_HOSTS              Host names accepted on HTTP, comma-separated ("*" accepts any)
  MCP_FS_MAX_FULL_READ_SIZE         read_file without offset/limit refuses larger files (bytes)
  MCP_FS_MAX_RESULT_BYTES           content one result may carry (bytes)
  MCP_FS_MAX_FILE_SIZE              as --max-file-size
  MCP_FS_REQUIRE_VIEW_BEFORE_EDIT   str_replace/create_file need a prior view (true/false)
  MCP_FS_DEFAULT_ROOT               root the editor working directory starts in
  MCP_FS_SEARCH_TIMEOUT_SECONDS     grep/glob timeout when a call gives none
  MCP_FS_SEARCH_MAX_RESULTS         grep/glob result cap when a call gives none
  MCP_FS_SEARCH_IGNORE              gitignore or none: what grep/glob/deep listings skip by default
  MCP_FS_SEARCH_INDEX               auto or off: a per-root trigram index narrows what grep reads
  MCP_FS_SESSIONS_IDLE_TIMEOUT_SECONDS  an HTTP session idle this long is closed
  MCP_FS_SESSIONS_MAX               open HTTP sessions in all (across replicas)
  MCP_FS_SESSIONS_MAX_PER_PRINCIPAL open HTTP sessions per principal
  MCP_FS_SESSION_STORE_URL          empty (in memory) or redis://host:port/db (shared by replicas)
  MCP_FS_SUBSCRIPTIONS_MAX_PER_SESSION  resources/subscribe: subscriptions one session may hold
  MCP_FS_JOURNAL_ENABLED            record every change so list_changes/undo_changes can undo it (true/false)
  MCP_FS_JOURNAL_DIR                where the change journal lives (outside every root)
  MCP_FS_JOURNAL_MAX_BYTES          journal size; the oldest before-images go first
  MCP_FS_JOURNAL_MAX_FILE_BYTES     a larger before-image is not kept (that change is not undoable)
  MCP_FS_JOURNAL_RETENTION_HOURS    changes older than this are forgotten
  MCP_FS_JOURNAL_REDIS_KEY_PREFIX   with MCP_FS_SESSION_STORE_URL: the journal's Redis key prefix (one per deployment)
  MCP_FS_CONFIRM_ENABLED            ask the person (elicitation) before a change the journal cannot undo (true/false)
  MCP_FS_CONFIRM_TIMEOUT_S          seconds to wait for that answer; unanswered, nothing changes (DECLINED)
  MCP_FS_AUTH_MODE                  HTTP authentication: none, tokens or oauth
  MCP_FS_AUTH_ALLOW_UNAUTHENTICATED true: allow mode none on a non-loopback host
  MCP_FS_AUTH_TOKENS                mode tokens: JSON list of {name, sha256, roots?, read_only?}
  MCP_FS_AUTH_OAUTH_ISSUER          mode oauth: the authorization server
  MCP_FS_AUTH_OAUTH_AUDIENCE        mode oauth: the resource URI tokens must name in aud
  MCP_FS_AUTH_OAUTH_REQUIRED_SCOPES mode oauth: JSON list of scopes every token needs
  MCP_FS_AUTH_OAUTH_ROOTS_CLAIM     mode oauth: a claim listing the roots a token may use
  MCP_FS_LIMITS_INFLIGHT_REQUEST_BYTES  request bodies read or held at once, server-wide (bytes)
  MCP_FS_LIMITS_INFLIGHT_REQUEST_BYTES_PER_PRINCIPAL  the same per principal (0: half the total)
  MCP_FS_LIMITS_BODY_IDLE_SECONDS   an HTTP request body that stops arriving this long is dropped
  MCP_FS_LIMITS_WATCHES             folder watches subscriptions may hold, server-wide (0: half the OS limit, capped)
  MCP_FS_LIMITS_WATCHES_PER_PRINCIPAL  the same per principal (0: half the server's)
  MCP_FS_METRICS_ENABLED            serve GET /metrics (true/false)
  MCP_FS_LOG_LEVEL                  error, warn, info or debug (logs go to stderr)`;

/** A command line that cannot be obeyed; main prints the message as one line and exits 1. */
export class CommandLineError extends Error {
  constructor(reason: string) {
    super(`mcp-filesystem: ${reason} (see mcp-filesystem --help)`);
    this.name = 'CommandLineError';
  }
}

/** Strict: an unknown or misspelt flag is an error rather than silently ignored. */
export function parseCommandLine(argv: readonly string[], env: NodeJS.ProcessEnv = {}): CommandLine {
  const review = argv[0] === REVIEW_COMMAND;
  let parsed;
  try {
    parsed = parseArgs({
      args: review ? argv.slice(1) : [...argv],
      strict: true,
      allowPositionals: true,
      options: {
        config: { type: 'string' },
        host: { type: 'string' },
        port: { type: 'string' },
        toolsets: { type: 'string' },
        'max-file-size': { type: 'string' },
        'read-only': { type: 'boolean', default: false },
        http: { type: 'boolean', default: false },
        stdio: { type: 'boolean', default: false },
        help: { type: 'boolean', default: false },
        version: { type: 'boolean', default: false },
      },
    });
  } catch (error) {
    const message = typeof error === 'object' && error !== null && 'message' in error ? String(error.message) : String(error);
    throw new CommandLineError(message.split('\n')[0].split('. ')[0]);
  }
  const { values, positionals } = parsed;
  const help = values.help ?? false;
  const version = values.version ?? false;
  const config = values.config;
  const http = values.http ?? false;
  const readOnly = values['read-only'] ?? false;
  let stdio = values.stdio ?? false;
  const clientRoots = !review && !help && !version && positionals.length === 0 && config === undefined && !env.MCP_FS_CONFIG && !http;
  if (review && !help && !version) {
    if (http || stdio) throw new CommandLineError('review serves its page on loopback: --http and --stdio do not apply');
    if (positionals.length === 0 && config === undefined && !env.MCP_FS_CONFIG) {
      throw new CommandLineError('review needs the roots the changes were made in: give the DIR arguments or the config file the server runs with');
    }
  }
  if (!help && !version) {
    if (positionals.length > 0 && config !== undefined) {
      throw new CommandLineError('DIR arguments and --config exclude each other: give directories or a config file');
    }
    if (positionals.length > 0 && config === undefined && env.MCP_FS_CONFIG) {
      throw new CommandLineError('DIR arguments and MCP_FS_CONFIG exclude each other: give directories or a config file');
    }
    if (http && stdio) throw new CommandLineError('--http and --stdio exclude each other');
    if (positionals.length === 0 && readOnly && !clientRoots) {
      throw new CommandLineError('--read-only applies to DIR arguments and client folders; with a config file, set each root\'s allowed_tools');
    }
    if (positionals.length > 0) stdio = !http;
    if (clientRoots) stdio = true;
  }
  // review loads the config as a stdio server does (the same journal); its own server is loopback only.
  if (review) stdio = true;
  return { config, dirs: positionals, stdio, clientRoots, readOnly, help, version, review, portGiven: values.port !== undefined };
}
