import { injectable } from 'inversify';
import type { SessionEndListener } from '../../composition/tokens.js';
import type { FileFingerprint, SessionStatePort } from '../../domain/ports/session-state.port.js';

/** Files remembered per session; beyond this the least recently seen is forgotten. */
export const MAX_FILES_PER_SESSION = 10_000;

interface SessionRecord {
  workingDirectory?: string;
  /** Insertion order = recency: a file seen again is moved to the end. */
  readonly files: Map<string, FileFingerprint>;
}

/**
 * The default SessionStatePort: one process, state in a Map, dropped when the server says a
 * session ended (DELETE, transport close, stdio exit). Forgetting a file only ever makes the
 * gate stricter (the session must view it again), so the per-session cap fails closed.
 */
@injectable()
export class InMemorySessionState implements SessionStatePort, SessionEndListener {
  private readonly sessions = new Map<string, SessionRecord>();

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

  sessionEnded(sessionId: string): void {
    this.sessions.delete(sessionId);
  }

  /** Sessions with state, for tests and diagnostics. */
  get sessionCount(): number {
    return this.sessions.size;
  }

  private session(sessionId: string): SessionRecord {
    let record = this.sessions.get(sessionId);
    if (!record) {
      record = { files: new Map() };
      this.sessions.set(sessionId, record);
    }
    return record;
  }
}
