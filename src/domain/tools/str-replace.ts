import type { EditSession, EditSessions } from '../edit-session.js';
import { DomainError } from '../errors.js';
import { withFileLock } from '../file-lock.js';
import { atNamespacePath, type Namespace } from '../namespace.js';
import type { ContentHasher } from '../ports/content-hasher.port.js';
import type { FileSystemPort } from '../ports/file-system.port.js';
import type { RootPath } from '../roots.js';
import type { Settings } from '../settings.js';
import { fileTooLarge, locateEntry, readToEnd, recordOwnWrite, sha256, statRegularFile, withOpenFile } from './editor-files.js';
import { decodeUtf8, encodeUtf8 } from './file-text.js';
import { MAX_LINE_CHARS } from './view-lines.js';

export const TOOL = 'str_replace';

/** Unchanged lines shown before and after an edit in the confirmation. */
const SNIPPET_CONTEXT_LINES = 4;

export interface StrReplaceInput {
  readonly sessionId: string;
  readonly path: string;
  readonly old_str: string;
  readonly new_str?: string;
  readonly replace_all?: boolean;
}

export interface StrReplaceResult {
  readonly path: string;
  readonly replacements: number;
  /** Bytes after the edit. */
  readonly size: number;
}

export interface StrReplaceOutcome {
  readonly result: StrReplaceResult;
  /** Confirmation with a few numbered lines around the (first) change. */
  readonly text: string;
}

/**
 * Replaces an exact, unique string in a text file (or every occurrence with replace_all).
 * The text is literal (no `$&` or `$1` expansion), the file keeps its line endings and
 * permissions, and the write is atomic. Gated by the session's view of the file.
 */
export class StrReplace {
  constructor(
    private readonly namespace: Namespace,
    private readonly sessions: EditSessions,
    private readonly files: FileSystemPort,
    private readonly hasher: ContentHasher,
    private readonly settings: Settings,
  ) {}

  async execute(input: StrReplaceInput): Promise<StrReplaceOutcome> {
    if (input.old_str === '') throw new DomainError('INVALID_ARGUMENT', 'old_str must not be empty (use create_file to write a whole file)');
    const session = this.sessions.for(input.sessionId);
    const { path, display } = locateEntry(this.namespace, TOOL, input.path, await session.workingDirectory());
    await statRegularFile(this.files, path, display);
    const key = await session.fileKey(path);
    const edit = await session.exclusive(key, () => withFileLock(this.files, path, () => this.edit(session, path, display, key, input)));
    const counted = edit.replacements === 1 ? '1 occurrence' : `${edit.replacements} occurrences`;
    return {
      result: { path: display, replacements: edit.replacements, size: edit.size },
      text: `Edited ${display}: replaced ${counted}.\n${editSnippet(edit.content, edit.firstChangeAt, edit.firstChangeLength)}`,
    };
  }

  private async edit(session: EditSession, path: RootPath, display: string, key: string, input: StrReplaceInput): Promise<Edit & { size: number }> {
    // The gate runs before the file's content is read or anything is written.
    const seen = await session.seenVersion(key, display);
    const limit = this.settings.maxFileSize;
    const { before, opened, version } = await withOpenFile(this.files, path, display, async (file) => {
      if (file.stat.size > limit) throw fileTooLarge(display, file.stat.size, limit);
      return { before: await readToEnd(file), opened: file.stat, version: file.version };
    });
    await session.assertUnchanged(seen, display, opened, async () => sha256(this.hasher, before));
    const content = decodeUtf8(before);
    if (content === null) {
      throw new DomainError('INVALID_ARGUMENT', `${display} is not UTF-8 text; str_replace edits text files only`, { attemptedPath: display });
    }

    const edit = replaceLiterally(content, input.old_str, input.new_str ?? '', input.replace_all ?? false, display);
    const after = encodeUtf8(edit.content);
    if (after.length > limit) throw fileTooLarge(display, after.length, limit, 'edited file');
    await atNamespacePath(display, () => this.files.writeFile(path, after, { mode: 'replace', createParents: false, expected: version }));
    await recordOwnWrite(session, this.files, this.hasher, { path, display, key }, after);
    return { ...edit, size: after.length };
  }
}

interface Edit {
  readonly content: string;
  readonly replacements: number;
  /** UTF-16 offset and length of the first replacement in the new content. */
  readonly firstChangeAt: number;
  readonly firstChangeLength: number;
}

/**
 * The replacement, done by slicing: String.prototype.replace would expand `$&`, `$1`, `$$`
 * in new_str. In a file whose lines end in CRLF, an old_str typed with '\n' is matched as
 * CRLF, and new_str's line breaks are written as CRLF, so the file keeps its endings.
 */
function replaceLiterally(content: string, oldStr: string, newStr: string, replaceAll: boolean, display: string): Edit {
  const eol = dominantLineEnding(content);
  const literal = occurrences(content, oldStr);
  const needle = literal.length > 0 ? oldStr : withLineEnding(oldStr, eol);
  const found = literal.length > 0 ? literal : occurrences(content, needle);
  const replacement = withLineEnding(newStr, eol);
  if (found.length === 0) {
    throw new DomainError(
      'INVALID_ARGUMENT',
      `old_str not found in ${display}; it must match the file exactly, whitespace and indentation included (view the file and copy the text)`,
      { attemptedPath: display },
    );
  }
  if (found.length > 1 && !replaceAll) {
    throw new DomainError(
      'INVALID_ARGUMENT',
      `old_str occurs ${found.length} times in ${display}; it must be unique: include more surrounding lines in old_str, or set replace_all to replace every occurrence`,
      { attemptedPath: display },
    );
  }
  const parts: string[] = [];
  let from = 0;
  for (const at of found) {
    parts.push(content.slice(from, at), replacement);
    from = at + needle.length;
  }
  parts.push(content.slice(from));
  return { content: parts.join(''), replacements: found.length, firstChangeAt: found[0], firstChangeLength: replacement.length };
}

/** Start offsets of the non-overlapping occurrences of `needle`, left to right. */
function occurrences(text: string, needle: string): number[] {
  const found: number[] = [];
  for (let at = text.indexOf(needle); at !== -1; at = text.indexOf(needle, at + needle.length)) found.push(at);
  return found;
}

/** Lines around a change, numbered like view's output. */
function editSnippet(content: string, changeAt: number, changeLength: number): string {
  const lines = content.split('\n');
  // A final line break ends the last line; it does not start another.
  if (lines.length > 1 && lines[lines.length - 1] === '') lines.pop();
  const firstChanged = lineOfOffset(content, changeAt);
  const lastChanged = lineOfOffset(content, changeAt + Math.max(changeLength - 1, 0));
  const first = Math.max(1, firstChanged - SNIPPET_CONTEXT_LINES);
  const last = Math.min(lines.length, lastChanged + SNIPPET_CONTEXT_LINES);
  const width = Math.max(4, String(last).length);
  const shown = lines.slice(first - 1, last).map((line, i) => {
    const text = line.endsWith('\r') ? line.slice(0, -1) : line;
    const cut = text.length > MAX_LINE_CHARS ? `${text.slice(0, MAX_LINE_CHARS)}... [truncated, ${text.length} chars total]` : text;
    return `${String(first + i).padStart(width)}\t${cut}`;
  });
  return `Snippet (lines ${first}-${last}):\n${shown.join('\n')}`;
}

function lineOfOffset(text: string, offset: number): number {
  let line = 1;
  for (let at = text.indexOf('\n'); at !== -1 && at < offset; at = text.indexOf('\n', at + 1)) line += 1;
  return line;
}

function dominantLineEnding(text: string): '\r\n' | '\n' {
  const crlf = text.split('\r\n').length - 1;
  const lf = text.split('\n').length - 1;
  return crlf > 0 && crlf >= lf - crlf ? '\r\n' : '\n';
}

function withLineEnding(text: string, eol: '\r\n' | '\n'): string {
  return eol === '\r\n' ? text.replace(/\r?\n/g, '\r\n') : text.replace(/\r\n/g, '\n');
}
