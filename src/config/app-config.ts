import type { Settings } from '../domain/settings.js';

export interface RootConfig {
  readonly name: string;
  /** Absolute realpath, resolved at start-up. */
  readonly path: string;
  readonly allowedTools: readonly string[];
}

export interface SessionLimits {
  /** A session idle this long is gone (milliseconds; the YAML key is in seconds). */
  readonly idleTimeoutMs: number;
  readonly max: number;
  readonly maxPerPrincipal: number;
}

/** The validated configuration the composition root is built from. */
export interface AppConfig {
  readonly host: string;
  readonly port: number;
  /** Host header values accepted on the HTTP transport (DNS-rebinding guard). */
  readonly allowedHosts: readonly string[];
  readonly logLevel: string;
  readonly configFile?: string;
  readonly settings: Settings;
  readonly sessions: SessionLimits;
  /** '' keeps session state in process memory; redis://host:port/db shares it between replicas. */
  readonly sessionStoreUrl: string;
  readonly roots: readonly RootConfig[];
}
