import type { EditSession } from '../edit-session.js';
import { DomainError } from '../errors.js';
import { withFileLock } from '../file-lock.js';
import { atNamespacePath } from '../namespace.js';
import type { EntryStat, WriteMode } from '../ports/file-system.port.js';
import type { RootPath } from '../roots.js';
import { contentBytes, humanSize, recordOwnWrite, withOpenFile, writeWholeFile } from './editor-files.js';
import { currentText, dryRunDiff, dryRunText } from './dry-run.js';
import { digestFile, holdsUndecodableText } from './file-text.js';
import { NamespaceUseCase } from './namespace-use-case.js';

export const TOOL = 'create_file';

export interface CreateFileInput {
  readonly sessionId: string;
  readonly path: string;
  readonly content: string;
  /** Check everything, write nothing, return the diff. */
  readonly dry_run?: boolean;
}

export interface CreateFileResult {
  readonly path: string;
  /** Bytes written (UTF-8). */
  readonly size: number;
  /** False when an existing file was overwritten. */
  readonly created: boolean;
  readonly dry_run?: true;
  /** Dry runs: the unified diff of what the call would write... */
  readonly diff?: string;
  /** ...or why it is not shown (too large to make, or to fit max_result_bytes). */
  readonly diff_omitted?: string;
}

export interface CreateFileOutcome {
  readonly result: CreateFileResult;
  readonly text: string;
}

/**
 * Writes a whole file: missing parents are created (0755), a new file gets 0644, an
 * existing one is replaced atomically and keeps its permissions. Overwriting needs a view
 * of the current version in this session; a new file needs none.
 */
export class CreateFile extends NamespaceUseCase {
  async execute(input: CreateFileInput): Promise<CreateFileOutcome> {
    const { session, path, display } = await this.locateFile(TOOL, input.sessionId, input.path);
    const bytes = contentBytes(input.content, display, this.settings.maxFileSize);

    const key = await session.fileKey(path);
    if (input.dry_run) return this.dryRun(session, { path, display, key }, input.content, bytes);
    const created = await session.exclusive(key, () => withFileLock(this.files, path, async () => {
      const existing = await this.statTarget(path, display);
      const isNew = existing === null
        ? await this.createNew(session, path, display, key, bytes)
        : await this.overwrite(session, path, display, key, bytes, existing);
      await recordOwnWrite(session, this.files, this.hasher, { path, display, key }, bytes);
      return isNew;
    }));
    return {
      result: { path: display, size: bytes.length, created },
      text: `${created ? 'Created' : 'Overwrote'} ${display} (${humanSize(bytes.length)}${bytes.length >= 1024 ? `, ${bytes.length} bytes` : ''})`,
    };
  }

  /** Every check the real call makes (size, kind, the gate), no lock, no write, no change to the session. */
  private async dryRun(session: EditSession, target: { path: RootPath; display: string; key: string }, content: string, bytes: Uint8Array): Promise<CreateFileOutcome> {
    const { path, display, key } = target;
    const existing = await this.statTarget(path, display);
    if (existing) await this.assertOverwritable(session, path, display, key, existing);
    const before = existing ? await atNamespacePath(display, () => currentText(this.files, path, this.settings.maxFileSize)) : '';
    const fields = await dryRunDiff(display, before, content, this.settings.maxResultBytes);
    return {
      result: { path: display, size: bytes.length, created: existing === null, ...fields },
      text: dryRunText(`Would ${existing ? 'overwrite' : 'create'} ${display} (${humanSize(bytes.length)}).`, fields),
    };
  }

  /**
   * Exclusive create, so a file that appears between our look and our write is never
   * overwritten unseen: it goes through the gate like any existing file.
   */
  private async createNew(session: EditSession, path: RootPath, display: string, key: string, bytes: Uint8Array): Promise<boolean> {
    try {
      await this.write(path, display, bytes, 'create_exclusive');
      return true;
    } catch (error) {
      if (!(error instanceof DomainError && error.code === 'ALREADY_EXISTS')) throw error;
    }
    const appeared = await this.statTarget(path, display);
    if (appeared) return this.overwrite(session, path, display, key, bytes, appeared);
    // A dangling in-root link: the write goes through it and creates its target.
    return (await this.write(path, display, bytes, 'replace')).created;
  }

  private async overwrite(
    session: EditSession,
    path: RootPath,
    display: string,
    key: string,
    bytes: Uint8Array,
    existing: EntryStat,
  ): Promise<boolean> {
    await this.assertOverwritable(session, path, display, key, existing);
    return (await this.write(path, display, bytes, 'replace')).created;
  }

  private async assertOverwritable(session: EditSession, path: RootPath, display: string, key: string, existing: EntryStat): Promise<void> {
    if (existing.kind === 'directory') throw new DomainError('IS_A_DIRECTORY', `path is a directory: ${display}`, { attemptedPath: display });
    if (existing.kind !== 'file') throw new DomainError('NOT_A_FILE', `not a regular file: ${display}`, { attemptedPath: display });
    const seen = await session.seenVersion(key, display);
    await session.assertUnchanged(seen, display, existing, () =>
      withOpenFile(this.files, path, display, async (file) => (await digestFile(this.hasher, 'sha256', file)).digest),
    );
    // The content a model read of this file had U+FFFD for bytes no JSON string can carry: a rewrite would lose them.
    if (await withOpenFile(this.files, path, display, holdsUndecodableText)) {
      throw new DomainError(
        'INVALID_ARGUMENT',
        `${display} holds bytes that are not valid UTF-8 (view and file_read show them as U+FFFD), and create_file would replace them; ` +
          'read_file gives the exact bytes. To replace the file on purpose, remove it first or use write_file',
        { attemptedPath: display },
      );
    }
  }

  private statTarget(path: RootPath, display: string): Promise<EntryStat | null> {
    return atNamespacePath(display, () => this.files.stat(path, { followSymlinks: true }));
  }

  private write(path: RootPath, display: string, bytes: Uint8Array, mode: WriteMode) {
    return writeWholeFile(this.files, path, display, bytes, mode);
  }
}
