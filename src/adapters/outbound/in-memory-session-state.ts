import type { SessionLimits } from '../../config/app-config.js';
import type { Clock } from '../../domain/ports/clock.port.js';
import type { FileFingerprint } from '../../domain/ports/session-state.port.js';
import { MAX_FILES_PER_SESSION, type OpenOutcome, type SessionRecord, type SessionStateStore } from '../shared/session-state-store.port.js';

export { MAX_FILES_PER_SESSION };

const UNBOUNDED: SessionLimits = { idleTimeoutMs: Number.MAX_SAFE_INTEGER, max: Number.MAX_SAFE_INTEGER, maxPerPrincipal: Number.MAX_SAFE_INTEGER };
const WALL_CLOCK: Clock = { now: () => new Date() };

interface StoredSession {
  /** Set by open(); state written for a session that was never opened (stdio) has none and never expires. */
  principal?: string;
  lastActivityMs: number;
  workingDirectory?: string;
  /** Insertion order = recency: a file seen again is moved to the end. */
  readonly files: Map<string, FileFingerprint>;
}

/**
 * The default store: one process, state in a Map. A session idle past the timeout is gone the
 * moment anyone asks (touch), whether or not the sweep has run yet. Forgetting a file only ever
 * makes the gate stricter (the session must view it again), so the per-session cap fails closed.
 */
export class InMemorySessionState implements SessionStateStore {
  private readonly sessions = new Map<string, StoredSession>();

  constructor(
    readonly limits: SessionLimits = UNBOUNDED,
    private readonly clock: Clock = WALL_CLOCK,
  ) {}

  async workingDirectory(sessionId: string): Promise<string | undefined> {
    return this.sessions.get(sessionId)?.workingDirectory;
  }

  async setWorkingDirectory(sessionId: string, path: string): Promise<void> {
    this.session(sessionId).workingDirectory = path;
  }

  async fingerprint(sessionId: string, fileKey: string): Promise<FileFingerprint | undefined> {
    return this.sessions.get(sessionId)?.files.get(fileKey);
  }

  async recordFingerprint(sessionId: string, fileKey: string, fingerprint: FileFingerprint): Promise<void> {
    const { files } = this.session(sessionId);
    files.delete(fileKey);
    files.set(fileKey, fingerprint);
    if (files.size > MAX_FILES_PER_SESSION) files.delete(files.keys().next().value as string);
  }

  async open(sessionId: string, principal: string): Promise<OpenOutcome> {
    await this.sweep();
    const open = [...this.sessions.values()].filter((session) => session.principal !== undefined);
    if (open.length >= this.limits.max) return 'too-many-sessions';
    if (open.filter((session) => session.principal === principal).length >= this.limits.maxPerPrincipal) return 'too-many-for-principal';
    this.sessions.set(sessionId, { principal, lastActivityMs: this.nowMs(), files: new Map() });
    return 'opened';
  }

  async touch(sessionId: string): Promise<SessionRecord | undefined> {
    const session = this.sessions.get(sessionId);
    if (session?.principal === undefined) return undefined;
    if (this.expired(session)) {
      this.sessions.delete(sessionId);
      return undefined;
    }
    session.lastActivityMs = this.nowMs();
    return { principal: session.principal };
  }

  async close(sessionId: string): Promise<void> {
    this.sessions.delete(sessionId);
  }

  async sweep(): Promise<void> {
    for (const [id, session] of this.sessions) if (this.expired(session)) this.sessions.delete(id);
  }

  reachable(): boolean {
    return true;
  }

  async disconnect(): Promise<void> {}

  /** Sessions with state, for tests and diagnostics. */
  get sessionCount(): number {
    return this.sessions.size;
  }

  private expired(session: StoredSession): boolean {
    return session.principal !== undefined && this.nowMs() - session.lastActivityMs >= this.limits.idleTimeoutMs;
  }

  private nowMs(): number {
    return this.clock.now().getTime();
  }

  private session(sessionId: string): StoredSession {
    let record = this.sessions.get(sessionId);
    if (!record) {
      record = { lastActivityMs: this.nowMs(), files: new Map() };
      this.sessions.set(sessionId, record);
    }
    return record;
  }
}
