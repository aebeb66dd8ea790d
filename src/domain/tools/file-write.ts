import { withFileLock } from '../file-lock.js';
import { contentBytes, recordOwnWrite, writeWholeFile } from './editor-files.js';
import { NamespaceUseCase } from './namespace-use-case.js';

export const TOOL = 'file_write';

export interface FileWriteInput {
  readonly sessionId: string;
  readonly path: string;
  readonly content: string;
}

export interface FileWriteResult {
  readonly path: string;
  /** Bytes written (UTF-8). */
  readonly size: number;
  /** False when an existing file was overwritten. */
  readonly created: boolean;
}

/**
 * The repo tools' plain write: creates parents (0755) and the file (0644) or atomically
 * replaces it, keeping its permissions. Not gated (the repo tools spec has no gate; an
 * operator who wants one allows create_file instead); the write counts as seen.
 */
export class FileWrite extends NamespaceUseCase {
  async execute(input: FileWriteInput): Promise<FileWriteResult> {
    const { session, path, display } = await this.locateFile(TOOL, input.sessionId, input.path);
    const bytes = contentBytes(input.content, display, this.settings.maxFileSize);
    const key = await session.fileKey(path);
    // Under the file's lock, so the write and the version it records are one step against other edits.
    const { created } = await withFileLock(this.files, path, async () => {
      const written = await writeWholeFile(this.files, path, display, bytes, 'replace');
      await recordOwnWrite(session, this.files, this.hasher, { path, display, key }, bytes);
      return written;
    });
    return { path: display, size: bytes.length, created };
  }
}
