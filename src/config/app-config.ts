import type { Settings } from '../domain/settings.js';
import type { Toolset } from '../domain/tool-facts.js';

export interface RootConfig {
  readonly name: string;
  /** Absolute realpath, resolved at start-up: the directory, or with `archive` the archive file. */
  readonly path: string;
  readonly allowedTools: readonly string[];
  /** A .tar / .tar.gz served read-only by the archive adapter: no tool that writes is allowed on it. */
  readonly archive?: boolean;
}

export interface StaticTokenConfig {
  readonly name: string;
  /** Lower-case hex SHA-256 of the token; the token itself is never stored. */
  readonly sha256: string;
  /** undefined: every root. */
  readonly roots?: readonly string[];
  readonly readOnly: boolean;
}

export interface OAuthConfig {
  readonly issuer: string;
  readonly audience: string;
  readonly requiredScopes: readonly string[];
  readonly rootsClaim?: string;
}

/** HTTP authentication (stdio is a local process and needs none). */
export type AuthConfig =
  | { readonly mode: 'none'; readonly allowUnauthenticated: boolean }
  | { readonly mode: 'tokens'; readonly tokens: readonly StaticTokenConfig[] }
  | { readonly mode: 'oauth'; readonly oauth: OAuthConfig };

export interface SessionLimits {
  /** A session idle this long is gone (milliseconds; the YAML key is in seconds). */
  readonly idleTimeoutMs: number;
  readonly max: number;
  readonly maxPerPrincipal: number;
}

/** The admission budget for request bytes and the idle bound on HTTP bodies (issues 27.5, 33.4). */
export interface RequestLimits {
  readonly inflightRequestBytes: number;
  /** Resolved: never 0 (the YAML's 0 means half the total). */
  readonly inflightRequestBytesPerPrincipal: number;
  readonly bodyIdleSeconds: number;
}

/** The change journal (issue 20). */
export interface JournalConfig {
  /** Absolute; checked at start-up: private, not a link, outside every root. */
  readonly dir: string;
  readonly maxBytes: number;
  readonly maxFileBytes: number;
  readonly retentionHours: number;
  /** With a Redis session store, where the record index lives in it (absent: the default, mcp-fs:journal:). */
  readonly redisKeyPrefix?: string;
}

/** The validated configuration the composition root is built from. */
export interface AppConfig {
  readonly host: string;
  readonly port: number;
  /** Host header values accepted on the HTTP transport (DNS-rebinding guard). */
  readonly allowedHosts: readonly string[];
  readonly logLevel: string;
  readonly configFile?: string;
  /** The tool families exposed; absent means all of them. */
  readonly toolsets?: readonly Toolset[];
  readonly settings: Settings;
  readonly sessions: SessionLimits;
  /** '' keeps session state in process memory; redis://host:port/db shares it between replicas. */
  readonly sessionStoreUrl: string;
  readonly roots: readonly RootConfig[];
  /** Set when the roots are the folders the stdio client shares (no DIR, no config file); `roots` is then empty. */
  readonly clientRoots?: { readonly readOnly: boolean };
  /** Absent means mode none on loopback (test servers); loadConfig always sets it. */
  readonly auth?: AuthConfig;
  /** resources/subscribe limits; absent means the defaults (256 a session). */
  readonly subscriptions?: { readonly maxPerSession: number };
  /** Watch budgets of resources/subscribe (limits.watches*): 0 derives one (see watchLimitsOf); absent means both derived. */
  readonly watches?: { readonly server: number; readonly perPrincipal: number };
  /** Request admission limits; absent means the defaults (hand-built test configs). loadConfig always sets it. */
  readonly limits?: RequestLimits;
  /** GET /metrics; absent means enabled. */
  readonly metrics?: { readonly enabled: boolean };
  /**
   * The private state directory for in-flight write records (config/state-dir.ts); absent means the
   * file system adapter's own default (hand-built test configs). loadConfig always sets it.
   */
  readonly stateDir?: string;
  /**
   * Where search indexes are kept between runs (index/ in the state directory, when that one is
   * outside every root); absent means each run builds its own.
   */
  readonly searchIndexDir?: string;
  /** The change journal; absent means off (hand-built test configs). loadConfig sets it unless journal.enabled is false. */
  readonly journal?: JournalConfig;
  /** Asking before what the journal could not undo (issue 30.3); absent means on, 120 s (hand-built test configs). */
  readonly confirm?: ConfirmConfig;
}

export interface ConfirmConfig {
  readonly enabled: boolean;
  readonly timeoutSeconds: number;
}
