import type { EditSession } from '../edit-session.js';
import { DomainError } from '../errors.js';
import { sniffImage } from '../image-sniffing.js';
import { atNamespacePath } from '../namespace.js';
import type { EntryStat, ReadableFile } from '../ports/file-system.port.js';
import { baseName, type RootPath } from '../roots.js';
import { fileTooLarge, humanSize, readToEnd, sha256, withOpenFile } from './editor-files.js';
import { BINARY_SNIFF_BYTES, looksBinary, lossyNote } from './file-text.js';
import { listTwoLevels } from './view-directory.js';
import { readLineWindow } from './view-lines.js';
import { base64Length, escapedLength, fitsWhatever } from '../result-budget.js';
import { NamespaceUseCase } from './namespace-use-case.js';

export const TOOL = 'view';

/** Without a view_range, a view shows at most this many lines. */
const MAX_VIEW_LINES = 2000;

/**
 * Ranged views of files up to this size still stream to the end to hash the content, which
 * gives the edit gate a fingerprint that catches same-size rewrites within one mtime tick;
 * bigger files stop after the range (memory and I/O stay bounded by the range).
 */
const HASH_WHOLE_FILE_UP_TO = 1024 * 1024;

export interface ViewInput {
  readonly sessionId: string;
  readonly path: string;
  /** [start, end], 1-based and inclusive; end -1 means the last line. */
  readonly view_range?: readonly number[];
}

export interface ViewSummary {
  readonly path: string;
  readonly type: 'text' | 'image' | 'binary' | 'directory' | 'roots';
  readonly size?: number;
  readonly start_line?: number;
  readonly end_line?: number;
  readonly total_lines?: number;
  readonly truncated?: boolean;
  readonly mime_type?: string;
  readonly entries?: number;
  /** Present and true when bytes were not valid UTF-8 and are shown as U+FFFD. */
  readonly lossy?: boolean;
}

export interface ViewOutcome {
  readonly summary: ViewSummary;
  /** What the model reads: numbered lines, a listing, or a one-line description. */
  readonly text: string;
  readonly image?: { readonly bytes: Uint8Array; readonly mimeType: string };
}

interface LineRange {
  readonly first: number;
  readonly last: number;
  readonly requested: boolean;
}

/** The editor's eyes: numbered lines of a file, an image, or a directory two levels deep. */
export class View extends NamespaceUseCase {
  async execute(input: ViewInput): Promise<ViewOutcome> {
    const range = parseRange(input.view_range);
    const session = this.sessions.for(input.sessionId);
    const target = this.namespace.locate(TOOL, input.path, await session.workingDirectory());
    if (target.kind === 'roots') return this.roots();
    const { path, display } = target;
    const stat = await atNamespacePath(display, () => this.files.stat(path, { followSymlinks: true }));
    if (stat === null) throw new DomainError('NOT_FOUND', `path not found: ${display}`, { attemptedPath: display });
    if (stat.kind === 'directory') {
      if (range.requested) throw new DomainError('INVALID_ARGUMENT', `view_range applies to files; ${display} is a directory (view it without view_range)`, { attemptedPath: display });
      return this.directory(path, display);
    }
    if (stat.kind !== 'file') throw new DomainError('NOT_A_FILE', `not a regular file: ${display}`, { attemptedPath: display });
    return withOpenFile(this.files, path, display, (file) => this.file(session, path, display, file, range));
  }

  private roots(): ViewOutcome {
    const lines = this.namespace.roots.map((root) => `${root.name}/`);
    return {
      summary: { path: '/', type: 'roots', entries: lines.length },
      text: [`Roots (each is a top-level folder: /<root>/<path inside it>):`, ...lines].join('\n'),
    };
  }

  private async directory(path: RootPath, display: string): Promise<ViewOutcome> {
    const listing = await listTwoLevels(this.files, path, display, this.namespace.roots);
    const header = `Directory ${display}, 2 levels deep (.git/ and node_modules/ are not shown):`;
    const body = listing.lines.length === 0 ? ['(empty)'] : listing.lines;
    const footer = listing.truncated ? [`Truncated after ${listing.lines.length} entries: view a subdirectory to see more.`] : [];
    return {
      summary: { path: display, type: 'directory', entries: listing.lines.length, truncated: listing.truncated },
      text: [header, ...body, ...footer].join('\n'),
    };
  }

  private async file(session: EditSession, path: RootPath, display: string, file: ReadableFile, range: LineRange): Promise<ViewOutcome> {
    const { size } = file.stat;
    // Security/robustness: the limit is checked on the opened file, not on an earlier stat.
    if (size > this.settings.maxFileSize) throw fileTooLarge(display, size, this.settings.maxFileSize);
    const header = await file.read(0, BINARY_SNIFF_BYTES);
    const mimeType = sniffImage(header, baseName(path));
    // An image travels once, base64: one larger than two copies' budget would break the message.
    if (mimeType && base64Length(size) > 2 * this.settings.maxResultBytes) {
      await this.recordSeen(session, path, file.stat);
      return {
        summary: { path: display, type: 'binary', size, mime_type: mimeType },
        text: `Image ${display} (${mimeType}, ${humanSize(size)}) is too large to show in one result; content not shown`,
      };
    }
    if (mimeType) {
      const bytes = await readToEnd(file);
      await this.recordSeen(session, path, file.stat, sha256(this.hasher, bytes));
      return {
        summary: { path: display, type: 'image', size, mime_type: mimeType },
        text: `Image ${display} (${mimeType}, ${humanSize(size)})`,
        image: { bytes, mimeType },
      };
    }
    if (looksBinary(header)) {
      await this.recordSeen(session, path, file.stat);
      return {
        summary: { path: display, type: 'binary', size },
        text: `Binary file (${humanSize(size)}), content not shown: ${display}`,
      };
    }
    return this.text(session, path, display, file, range);
  }

  private async text(session: EditSession, path: RootPath, display: string, file: ReadableFile, range: LineRange): Promise<ViewOutcome> {
    const readToEndOfFile = !range.requested || file.stat.size <= HASH_WHOLE_FILE_UP_TO;
    const window = await readLineWindow(file, range.first, range.last, readToEndOfFile, this.hasher);
    const total = window.totalLines;
    if (range.requested && total !== undefined && range.first > total) {
      throw new DomainError(
        'INVALID_ARGUMENT',
        total === 0
          ? `invalid view_range [${range.first}, ${rangeEnd(range)}]: ${display} is empty (0 lines)`
          : `invalid view_range [${range.first}, ${rangeEnd(range)}]: start ${range.first} is beyond the end of ${display}, which has ${total} lines (valid start: 1..${total})`,
      );
    }
    await this.recordSeen(session, path, file.stat, window.sha256);
    const width = Math.max(4, String(range.first + window.lines.length - 1).length);
    const numbered = withinBudget(
      window.lines.map((line, i) => `${String(range.first + i).padStart(width)}\t${line}`),
      this.settings.maxResultBytes - NOTE_RESERVE,
    );
    const shown = numbered.length;
    const lastShown = range.first + shown - 1;
    const cutByBudget = shown < window.lines.length;
    const truncated = cutByBudget || (!range.requested && total !== undefined && total > shown);
    if (cutByBudget) {
      numbered.push(`Truncated at line ${lastShown}: the rest does not fit in one result. Continue with view_range [${lastShown + 1}, ${rangeEnd(range)}].`);
    } else if (truncated) numbered.push(`Truncated: file has ${total} lines. Use view_range to read specific sections.`);
    if (window.lossy) numbered.push(lossyNote(display));
    const summary: ViewSummary = {
      path: display,
      type: 'text',
      size: file.stat.size,
      ...(shown > 0 ? { start_line: range.first, end_line: lastShown } : {}),
      ...(total !== undefined ? { total_lines: total } : {}),
      truncated,
      ...(window.lossy ? { lossy: true } : {}),
    };
    return { summary, text: shown === 0 ? `(empty file: ${display})` : numbered.join('\n') };
  }

  private async recordSeen(session: EditSession, path: RootPath, stat: EntryStat, contentSha256?: string): Promise<void> {
    await session.recordSeen(await session.fileKey(path), stat, contentSha256);
  }
}

/** Room kept in the result budget for the closing note. */
const NOTE_RESERVE = 256;

/** The leading lines whose text, joined by newlines and JSON-escaped, fits in `budget`. */
function withinBudget(lines: string[], budget: number): string[] {
  if (fitsWhatever(lines.reduce((units, line) => units + line.length + 1, 0), budget)) return lines;
  let used = 0;
  for (let i = 0; i < lines.length; i += 1) {
    used += escapedLength(lines[i]) + 2;
    if (used > budget) return lines.slice(0, i);
  }
  return lines;
}

function parseRange(viewRange: readonly number[] | undefined): LineRange {
  if (viewRange === undefined) return { first: 1, last: MAX_VIEW_LINES, requested: false };
  const [first, end] = viewRange;
  const last = end === -1 ? Number.POSITIVE_INFINITY : end;
  if (viewRange.length !== 2 || !Number.isInteger(first) || !Number.isInteger(end) || first < 1 || first > last) {
    throw new DomainError(
      'INVALID_ARGUMENT',
      `invalid view_range ${JSON.stringify(viewRange)}: give [start, end] with 1 <= start <= end (lines are numbered from 1; end -1 reads to the last line)`,
    );
  }
  return { first, last, requested: true };
}

function rangeEnd(range: LineRange): string {
  return Number.isFinite(range.last) ? String(range.last) : '-1';
}
