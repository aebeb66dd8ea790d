import { DomainError, errors, inRoot } from '../errors.js';
import type { FileSystemPort, ReadableFile } from '../ports/file-system.port.js';
import { displayPath, type RootPath } from '../roots.js';
import { base64BytesWithin, linesWithin, utf8PrefixWithin } from '../result-budget.js';
import type { Settings } from '../settings.js';
import {
  BINARY_SNIFF_BYTES,
  decodeContent,
  formatSize,
  looksBinary,
  readLineWindow,
  readRange,
  sizeOverLimit,
} from './file-text.js';
import type { RootAccess } from './root-access.js';
import type { WorkContext } from '../work-context.js';

export interface ReadFileInput {
  root: string;
  path: string;
  offset_bytes?: number;
  limit_bytes?: number;
  offset_lines?: number;
  limit_lines?: number;
}

export interface ReadFileResult {
  path: string;
  content: string;
  /** Size of the whole file in bytes. */
  size: number;
  /** More of the file follows what was returned. */
  truncated: boolean;
  encoding: 'utf-8' | 'base64';
  binary: boolean;
  /** Line reads only: lines in the whole file. */
  lines_total?: number;
  /** Byte and whole reads that stopped early: the offset_bytes that continues the read. */
  next_offset_bytes?: number;
  /** Line reads that stopped early: the offset_lines that continues the read. */
  next_offset_lines?: number;
}

/** One read of a batch: the result, and whether the result budget (not the window, not a read limit) cut it. */
export interface BudgetedRead {
  result: ReadFileResult;
  budgetCut: boolean;
}

type Window = Pick<ReadFileResult, 'content' | 'truncated' | 'encoding' | 'lines_total' | 'next_offset_bytes' | 'next_offset_lines'> & {
  budgetCut: boolean;
};

/** FR-005: a full read up to max_full_read_size, or a byte or line window of any file. */
export class ReadFile {
  constructor(
    private readonly access: RootAccess,
    private readonly fs: FileSystemPort,
    private readonly settings: Settings,
  ) {}

  async execute(input: ReadFileInput, work?: WorkContext): Promise<ReadFileResult> {
    return (await this.read(input, work, this.settings.maxResultBytes, false)).result;
  }

  /**
   * read_files' read of one file within `resultBytes` (the JSON-escaped content left of the call's
   * budget). A whole read cut short stops at a line end and continues by offset_lines, which
   * read_files takes; offset_bytes (which it does not) only when even the first line does not fit.
   */
  async readWithin(input: ReadFileInput, resultBytes: number, work?: WorkContext): Promise<BudgetedRead> {
    return this.read(input, work, resultBytes, true);
  }

  private async read(input: ReadFileInput, work: WorkContext | undefined, resultBytes: number, wholeByLines: boolean): Promise<BudgetedRead> {
    const target = this.access.path('read_file', input.root, input.path);
    const byBytes = input.offset_bytes !== undefined || input.limit_bytes !== undefined;
    const byLines = input.offset_lines !== undefined || input.limit_lines !== undefined;
    if (byBytes && byLines) {
      throw errors.invalidArgument(
        `offset_bytes/limit_bytes and offset_lines/limit_lines are mutually exclusive${inRoot(target.root.name)}`,
      );
    }
    checkWhole(target, 'offset_bytes', input.offset_bytes, 0);
    checkWhole(target, 'limit_bytes', input.limit_bytes, 1);
    checkWhole(target, 'offset_lines', input.offset_lines, 1);
    checkWhole(target, 'limit_lines', input.limit_lines, 1);

    const file = await this.openRegularFile(target);
    try {
      const size = file.stat.size;
      if (!byLines && !byBytes) {
        const { budgetCut, ...whole } = await this.readWhole(file, target, size, resultBytes, wholeByLines, work);
        return { result: { path: displayPath(target), size, ...whole }, budgetCut };
      }
      const binary = looksBinary(await readRange(file, 0, Math.min(size, BINARY_SNIFF_BYTES)));
      const { budgetCut, ...window } = byLines
        ? await this.readLines(file, target, binary, input.offset_lines ?? 1, input.limit_lines, resultBytes, work)
        : await this.readBytes(file, size, binary, input.offset_bytes ?? 0, input.limit_bytes, resultBytes, work);
      return { result: { path: displayPath(target), size, binary, ...window }, budgetCut };
    } finally {
      await file.close();
    }
  }

  /**
   * No single response carries more than this: a partial read is still held in memory
   * and sent in one message, so it gets the larger of the two operator limits.
   */
  private get partialReadCeiling(): number {
    return Math.max(this.settings.maxFullReadSize, this.settings.maxFileSize);
  }

  /** One walk: openFile judges the path itself; only its answer for a directory gets the hint. */
  private async openRegularFile(target: RootPath): Promise<ReadableFile> {
    const shown = displayPath(target);
    try {
      return await this.fs.openFile(target);
    } catch (error) {
      if (!(error instanceof DomainError)) throw error;
      // A folder on the way that is missing, or not a folder: either way the file the caller named is not there.
      if (error.code === 'NOT_A_DIRECTORY' || error.code === 'NOT_FOUND') throw errors.notFound('file', target.root.name, shown);
      if (error.code === 'IS_A_DIRECTORY') throw errors.isADirectory(target.root.name, shown, '; use list_folder');
      throw error;
    }
  }

  /** The binary test looks at the bytes read for the content: a whole read reads the file once. */
  private async readWhole(
    file: ReadableFile,
    target: RootPath,
    size: number,
    resultBytes: number,
    wholeByLines: boolean,
    work?: WorkContext,
  ): Promise<Pick<ReadFileResult, 'binary'> & Window> {
    const limit = this.settings.maxFullReadSize;
    if (size > limit) {
      throw new DomainError(
        'FILE_TOO_LARGE',
        `file too large for full read (${sizeOverLimit(size, limit)}); use offset/limit parameters to read ${displayPath(target)} in parts${inRoot(target.root.name)}`,
        { root: target.root.name, attemptedPath: displayPath(target) },
      );
    }
    const bytes = await readRange(file, 0, size, work);
    const binary = looksBinary(bytes);
    const window = this.byteWindow(bytes, binary, 0, size, resultBytes);
    if (!wholeByLines || !window.truncated || window.encoding !== 'utf-8') return { binary, ...window };
    const kept = linesWithin(bytes, resultBytes);
    if (kept.lines === 0) return { binary, ...window };
    return {
      binary,
      ...decodeContent(bytes.subarray(0, kept.bytes), false),
      truncated: true,
      lines_total: countLines(bytes),
      next_offset_lines: kept.lines + 1,
      budgetCut: true,
    };
  }

  private async readBytes(file: ReadableFile, size: number, binary: boolean, offset: number, limit: number | undefined, resultBytes: number, work?: WorkContext): Promise<Window> {
    // Escaping never makes content shorter, so more than the result budget is never worth reading.
    const wanted = Math.min(limit ?? this.settings.maxFullReadSize, this.partialReadCeiling);
    const length = Math.min(wanted, resultBytes);
    const bytes = offset >= size ? new Uint8Array() : await readRange(file, offset, length, work);
    const window = this.byteWindow(bytes, binary, offset, size, resultBytes);
    return { ...window, budgetCut: window.budgetCut || (length < wanted && window.truncated) };
  }

  /** The bytes read from `offset`, cut to what fits the result budget as they will be sent. */
  private byteWindow(bytes: Uint8Array, binary: boolean, offset: number, size: number, budget: number): Window {
    const decoded = decodeContent(bytes, binary);
    const fits = decoded.encoding === 'base64' ? base64BytesWithin(budget) : utf8PrefixWithin(bytes, budget);
    const kept = fits >= bytes.length ? bytes : bytes.subarray(0, fits);
    const end = offset + kept.length;
    const content = kept === bytes ? decoded : decodeContent(kept, decoded.encoding === 'base64');
    const budgetCut = kept !== bytes;
    return end < size ? { ...content, truncated: true, next_offset_bytes: end, budgetCut } : { ...content, truncated: false, budgetCut };
  }

  private async readLines(file: ReadableFile, target: RootPath, binary: boolean, first: number, limit: number | undefined, resultBytes: number, work?: WorkContext): Promise<Window> {
    const readLimit = limit === undefined ? this.settings.maxFullReadSize : this.partialReadCeiling;
    // Base64 is the longest a byte can travel without escapes; text is cut to its escaped length below.
    const budget = Math.min(readLimit, base64BytesWithin(resultBytes));
    const window = await readLineWindow(file, first, limit, budget, work);
    if (window.budgetExhausted && window.linesReturned === 0) {
      throw new DomainError(
        'FILE_TOO_LARGE',
        `line ${first} of ${displayPath(target)} alone is larger than the read limit (${formatSize(budget)}); read it with offset_bytes/limit_bytes${inRoot(target.root.name)}`,
        { root: target.root.name, attemptedPath: displayPath(target) },
      );
    }
    let { bytes, linesReturned } = window;
    // The read limit (max_full_read_size without limit_lines) is the window's end, not the budget's.
    let budgetCut = window.budgetExhausted && budget < readLimit;
    let content = decodeContent(bytes, binary);
    if (content.encoding === 'utf-8') {
      const kept = linesWithin(bytes, resultBytes);
      if (kept.lines === 0 && linesReturned > 0) {
        throw new DomainError(
          'FILE_TOO_LARGE',
          `line ${first} of ${displayPath(target)} alone is larger than the result limit once escaped; read it with offset_bytes/limit_bytes${inRoot(target.root.name)}`,
          { root: target.root.name, attemptedPath: displayPath(target) },
        );
      }
      if (kept.lines < linesReturned) {
        bytes = bytes.subarray(0, kept.bytes);
        linesReturned = kept.lines;
        content = decodeContent(bytes, binary);
        budgetCut = true;
      }
    }
    const next = first + linesReturned;
    return next - 1 < window.linesTotal
      ? { ...content, truncated: true, lines_total: window.linesTotal, next_offset_lines: next, budgetCut }
      : { ...content, truncated: false, lines_total: window.linesTotal, budgetCut };
  }
}

/** Lines in text: a last line without a newline counts. */
function countLines(bytes: Uint8Array): number {
  let lines = 0;
  for (const byte of bytes) if (byte === 0x0a) lines += 1;
  return bytes.length > 0 && bytes[bytes.length - 1] !== 0x0a ? lines + 1 : lines;
}

function checkWhole(target: RootPath, name: string, value: number | undefined, minimum: number): void {
  if (value === undefined || (Number.isInteger(value) && value >= minimum)) return;
  throw errors.invalidArgument(`${name} must be an integer >= ${minimum}, got ${value}${inRoot(target.root.name)}`);
}
