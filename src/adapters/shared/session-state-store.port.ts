import type { SessionLimits } from '../../config/app-config.js';
import type { SessionStatePort } from '../../domain/ports/session-state.port.js';

/** Files remembered per session; beyond this one is forgotten (in memory: the least recently seen). */
export const MAX_FILES_PER_SESSION = 10_000;

/** What the HTTP adapter keeps about a session besides the editor state the domain asks for. */
export interface SessionRecord {
  /** Who opened it; a request under another principal must not reach it. */
  readonly principal: string;
}

export type OpenOutcome = 'opened' | 'too-many-sessions' | 'too-many-for-principal';

/** The store could not be reached; the request is refused with 503 and the client may retry. */
export class SessionStoreUnavailable extends Error {
  constructor(readonly reason: string) {
    super(`session store unreachable: ${reason}`);
    this.name = 'SessionStoreUnavailable';
  }
}

/**
 * Where every piece of per-session state lives: the domain's SessionStatePort (working
 * directory, view records) plus the session's lifecycle (principal, last activity, caps).
 * In memory for one process, Redis for replicas; the inbound adapters only see this interface.
 */
export interface SessionStateStore extends SessionStatePort {
  readonly limits: SessionLimits;
  /** Records a new session unless a cap is reached; nothing is stored when it is. */
  open(sessionId: string, principal: string): Promise<OpenOutcome>;
  /** The session's record, marking it active now; undefined once it was closed or sat idle past the timeout. */
  touch(sessionId: string): Promise<SessionRecord | undefined>;
  /** Drops every piece of the session's state. */
  close(sessionId: string): Promise<void>;
  /** Drops sessions idle past the timeout (a store with its own expiry does nothing). */
  sweep(): Promise<void>;
  /** False while the store cannot be reached; /health and /ready report it. */
  reachable(): boolean;
  disconnect(): Promise<void>;
}
