import { DomainError } from './errors.js';
import { namespacePath, NAMESPACE_TOP } from './namespace.js';
import { MAX_SYMLINK_HOPS } from './path-policy.js';
import type { EntryStat, FileSystemPort } from './ports/file-system.port.js';
import type { FileFingerprint, SessionStatePort } from './ports/session-state.port.js';
import type { RootPath } from './roots.js';
import type { Settings } from './settings.js';

/** Hands out the EditSession of an MCP session; all state lives in the SessionStatePort. */
export class EditSessions {
  private readonly locks = new FileLocks();

  constructor(
    private readonly store: SessionStatePort,
    private readonly files: FileSystemPort,
    private readonly settings: Settings,
  ) {}

  for(sessionId: string): EditSession {
    return new EditSession(sessionId, this.store, this.files, this.settings, this.locks);
  }
}

/**
 * Serialises the check-then-write of edits to one file inside this server, across sessions:
 * two edits running at once (parallel tool calls, or two sessions) could otherwise both
 * pass the gate on the same version and the later write would silently drop the earlier
 * change. One after the other, the second sees the first (its own session's edit counts as
 * seen; another session's edit is FILE_CHANGED_SINCE_VIEW).
 */
class FileLocks {
  private readonly tails = new Map<string, Promise<void>>();

  async run<T>(fileKey: string, action: () => Promise<T>): Promise<T> {
    const previous = this.tails.get(fileKey) ?? Promise.resolve();
    const result = previous.then(action);
    const tail = result.then(
      () => undefined,
      () => undefined,
    );
    this.tails.set(fileKey, tail);
    try {
      return await result;
    } finally {
      if (this.tails.get(fileKey) === tail) this.tails.delete(fileKey);
    }
  }
}

/**
 * One session's view of the namespace: its working directory and the view-before-edit
 * gate. The gate remembers, per file, the version the session last saw (a view, a full
 * read, or its own write) and refuses edits of files it never saw (FILE_NOT_VIEWED) or
 * that changed on disk since (FILE_CHANGED_SINCE_VIEW), so an agent never overwrites
 * changes it has not read.
 */
export class EditSession {
  constructor(
    readonly id: string,
    private readonly store: SessionStatePort,
    private readonly files: FileSystemPort,
    private readonly settings: Settings,
    private readonly locks: FileLocks,
  ) {}

  async workingDirectory(): Promise<string> {
    const stored = await this.store.workingDirectory(this.id);
    if (stored !== undefined) return stored;
    return this.settings.defaultRoot ? `/${this.settings.defaultRoot}` : NAMESPACE_TOP;
  }

  async changeDirectory(path: RootPath): Promise<string> {
    const cwd = namespacePath(path);
    await this.store.setWorkingDirectory(this.id, cwd);
    return cwd;
  }

  /**
   * The identity of a file for the gate: its namespace path after following in-root links
   * (parents and the file itself), so a view through a link counts for the target and an
   * edit through another link to the same file sees that view. A path that does not exist,
   * cannot be looked at, or whose link leaves the root keys lexically from there on: the
   * operation itself then meets (and reports) the same obstacle.
   */
  async fileKey(path: RootPath): Promise<string> {
    let segments = [...path.segments];
    let hops = 0;
    for (let depth = 1; depth <= segments.length; depth += 1) {
      const entry = await this.files.stat({ root: path.root, segments: segments.slice(0, depth) }).catch(() => null);
      if (entry === null) break;
      if (entry.kind !== 'symlink') continue;
      const target = entry.link?.resolvedPath;
      if (!target || (hops += 1) > MAX_SYMLINK_HOPS) break;
      // The target may sit behind links of its own: start over on the rewritten path.
      segments = [...target.segments, ...segments.slice(depth)];
      depth = 0;
    }
    return namespacePath({ root: path.root, segments });
  }

  /** Runs an edit of `fileKey` (gate check to recordSeen) while no other edit of it runs. */
  exclusive<T>(fileKey: string, edit: () => Promise<T>): Promise<T> {
    return this.locks.run(fileKey, edit);
  }

  /**
   * FILE_NOT_VIEWED unless this session saw the file. Runs before the edit reads or writes
   * anything. Returns what the session saw, or null when the gate is switched off.
   */
  async seenVersion(fileKey: string, display: string): Promise<FileFingerprint | null> {
    if (!this.settings.requireViewBeforeEdit) return null;
    const seen = await this.store.fingerprint(this.id, fileKey);
    if (seen) return seen;
    throw new DomainError(
      'FILE_NOT_VIEWED',
      `file has not been viewed in this session: ${display}; call view on it before editing (a view in another session does not count)`,
      { attemptedPath: display },
    );
  }

  /**
   * FILE_CHANGED_SINCE_VIEW when the file on disk is not the version the session saw.
   * When both sides have a content hash, the hash decides: a rewrite with the same size
   * inside the same mtime tick is caught, and a mere touch is not a change. Otherwise size
   * and mtime must both match. `currentSha256` is only called when a hash can decide, so a
   * caller that has not read the file pays for the hash only then.
   */
  async assertUnchanged(
    seen: FileFingerprint | null,
    display: string,
    current: EntryStat,
    currentSha256: () => Promise<string>,
  ): Promise<void> {
    if (seen === null) return;
    const changed =
      seen.size !== current.size ||
      (seen.sha256 !== undefined
        ? seen.sha256 !== (await currentSha256())
        : seen.modifiedAtMs !== current.modifiedAt.getTime());
    if (!changed) return;
    throw new DomainError(
      'FILE_CHANGED_SINCE_VIEW',
      `file changed on disk since this session last viewed it: ${display}; view it again before editing`,
      { attemptedPath: display },
    );
  }

  /** Called after a view, a full read or the session's own write: that version is now "seen". */
  async recordSeen(fileKey: string, stat: EntryStat, sha256?: string): Promise<void> {
    const fingerprint: FileFingerprint = { size: stat.size, modifiedAtMs: stat.modifiedAt.getTime(), sha256 };
    await this.store.recordFingerprint(this.id, fileKey, fingerprint);
  }
}
