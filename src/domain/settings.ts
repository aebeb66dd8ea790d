import type { IgnoreMode } from './search/ignore-rules.js';

/** The operator's limits that the domain enforces (from config; see src/config). */
export interface Settings {
  /** read_file without offset/limit refuses files larger than this (bytes). */
  readonly maxFullReadSize: number;
  /** Bytes of JSON-escaped content one result carries, per copy (see result-budget.ts); larger windows are cut. */
  readonly maxResultBytes: number;
  /** Editor tools refuse to read or write files larger than this (bytes). */
  readonly maxFileSize: number;
  /** str_replace and create_file over an existing file need a prior view in the session. */
  readonly requireViewBeforeEdit: boolean;
  /** Root the editor namespace's working directory starts in. */
  readonly defaultRoot: string;
  /** grep/glob defaults and ceilings (OQ-001). */
  readonly search: {
    readonly defaultTimeoutSeconds: number;
    readonly maxTimeoutSeconds: number;
    readonly defaultMaxResults: number;
    readonly maxResultsLimit: number;
    /** Issue 19: what grep, glob, list_folder (depth > 1) and file_list ignore when a call does not say; default gitignore. */
    readonly ignore?: IgnoreMode;
    /** Issue 31.2: per-root trigram indexes grep narrows its reads with; absent: off. */
    readonly index?: {
      readonly mode: 'auto' | 'off';
      readonly maxBytes: number;
      readonly minRootBytes: number;
    };
  };
}
