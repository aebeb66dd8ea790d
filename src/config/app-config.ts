import type { Settings } from '../domain/settings.js';
import type { Toolset } from '../domain/tool-names.js';

export interface RootConfig {
  readonly name: string;
  /** Absolute realpath, resolved at start-up. */
  readonly path: string;
  readonly allowedTools: readonly string[];
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
  readonly roots: readonly RootConfig[];
}
