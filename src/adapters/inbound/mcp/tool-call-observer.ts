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
