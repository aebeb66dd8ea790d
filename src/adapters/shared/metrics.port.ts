import type { JournalObserver } from '../../domain/ports/change-journal.port.js';

/** One finished tool call, as the call log records it (no arguments beyond root, no content). */
export interface ToolCallRecord {
  readonly tool: string;
  readonly root?: string;
  readonly outcome: 'success' | 'error' | 'cancelled';
  readonly errorCode?: string;
  readonly durationSeconds: number;
  /** Bytes of the response sent back (what the client read). */
  readonly responseBytes: number;
  /** Bytes of content the call asked to write (0 for tools that do not write). */
  readonly writtenBytes: number;
  /** Set when the call was refused for a security reason (the DomainError code). */
  readonly denial?: string;
}

/** Told about every tool call after it is logged (metrics). */
export interface ToolCallObserver {
  toolCallFinished(call: ToolCallRecord): void;
}

/** What the metrics see of the admission budget: bytes admitted and refused (the gauge of the in-flight total reads `inFlight`). */
export interface AdmissionObserver {
  requestBytesAdmitted(bytes: number): void;
  requestBytesRefused(bytes: number): void;
}

/**
 * The server's metrics as the inbound adapters use them: they report tool calls, admissions,
 * journal usage and refused authentications, register gauges read at scrape time, and serve the
 * exposition. A contract between inbound and outbound adapters, so neither imports the other.
 */
export interface ServerMetrics extends ToolCallObserver, JournalObserver, AdmissionObserver {
  authFailed(reason: string): void;
  /** The open-sessions gauge reads the session count when scraped. */
  trackOpenSessions(count: () => number): void;
  /** The in-flight gauge reads the admission budget's total when scraped. */
  trackInflightRequestBytes(count: () => number): void;
  /** The watches gauge reads the watch budget's total when scraped. */
  trackWatches(count: () => number): void;
  contentType(): string;
  render(): Promise<string>;
}
