/**
 * What a session knew about a file when it last viewed or wrote it. `sha256` is present
 * only when the whole content passed through the session (a full view, a read, a write).
 */
export interface FileFingerprint {
  readonly size: number;
  readonly modifiedAtMs: number;
  readonly sha256?: string;
}

/**
 * Per-session editor state (one MCP session = one `sessionId`): the working directory of
 * the namespace tools and the files the session has seen. Async so a shared store could
 * stand behind it; the default keeps it in memory and drops it when the session ends.
 */
export interface SessionStatePort {
  /** The namespace path the session is in, or undefined before its first change_directory. */
  workingDirectory(sessionId: string): Promise<string | undefined>;
  setWorkingDirectory(sessionId: string, path: string): Promise<void>;
  /** `fileKey` is the file's canonical namespace path (in-root links followed). */
  fingerprint(sessionId: string, fileKey: string): Promise<FileFingerprint | undefined>;
  recordFingerprint(sessionId: string, fileKey: string, fingerprint: FileFingerprint): Promise<void>;
}
