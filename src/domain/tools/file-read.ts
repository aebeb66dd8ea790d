import { DomainError } from '../errors.js';
import { linesWithin } from '../result-budget.js';
import { fileTooLarge, humanSize, readToEnd, sha256, statRegularFile, withOpenFile } from './editor-files.js';
import { decodeUtf8, looksBinary } from './file-text.js';
import { NamespaceUseCase } from './namespace-use-case.js';

export const TOOL = 'file_read';

export interface FileReadInput {
  readonly sessionId: string;
  readonly path: string;
}

export interface FileReadResult {
  readonly path: string;
  /** The whole file as UTF-8 text; empty for a binary file. */
  readonly content: string;
  readonly size: number;
  readonly binary: boolean;
  /** Present when the content stops before the end: it held more than one result carries. */
  readonly truncated?: boolean;
  /** With truncated: the first line not returned, for view's view_range. */
  readonly next_line?: number;
  /** Present and true when the content is not valid UTF-8: undecodable bytes became U+FFFD. */
  readonly lossy?: boolean;
}

/**
 * The repo tools' plain read: the whole file as a string. It is a full read, so the
 * operator's max_full_read_size applies; `view` with a view_range reads larger files.
 * The session has now seen the file, which counts as a view for the edit gate.
 */
export class FileRead extends NamespaceUseCase {
  async execute(input: FileReadInput): Promise<{ result: FileReadResult; text: string }> {
    const { session, path, display } = await this.locateFile(TOOL, input.sessionId, input.path);
    await statRegularFile(this.files, path, display);
    const limit = this.settings.maxFullReadSize;
    const { bytes, stat } = await withOpenFile(this.files, path, display, async (file) => {
      if (file.stat.size > limit) {
        throw fileTooLarge(display, file.stat.size, limit, 'file', 'max_full_read_size', 'use view with view_range to read it in parts');
      }
      return { bytes: await readToEnd(file), stat: file.stat };
    });
    await session.recordSeen(await session.fileKey(path), stat, sha256(this.hasher, bytes));
    if (looksBinary(bytes)) {
      return {
        result: { path: display, content: '', size: bytes.length, binary: true },
        text: `Binary file (${humanSize(bytes.length)}), content not shown: ${display}`,
      };
    }
    const kept = linesWithin(bytes, this.settings.maxResultBytes);
    const decode = (part: Uint8Array) => {
      const exact = decodeUtf8(part);
      return exact !== null ? { content: exact } : { content: new TextDecoder('utf-8', { ignoreBOM: true }).decode(part), lossy: true };
    };
    if (kept.bytes === bytes.length) {
      const decoded = decode(bytes);
      return { result: { path: display, ...decoded, size: bytes.length, binary: false }, text: decoded.content };
    }
    if (kept.lines === 0) {
      throw new DomainError(
        'FILE_TOO_LARGE',
        `${display}: its first line is larger than one result carries (max_result_bytes, counted JSON-escaped); read it with read_file offset_bytes/limit_bytes`,
        { attemptedPath: display },
      );
    }
    const decoded = decode(bytes.subarray(0, kept.bytes));
    return {
      result: { path: display, ...decoded, size: bytes.length, binary: false, truncated: true, next_line: kept.lines + 1 },
      text: decoded.content,
    };
  }
}
