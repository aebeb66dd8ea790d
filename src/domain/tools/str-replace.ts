import type { EditSession } from '../edit-session.js';
import { DomainError } from '../errors.js';
import { withFileLock } from '../file-lock.js';
import { atNamespacePath } from '../namespace.js';
import type { RootPath } from '../roots.js';
import { DiffBudget, type DiffField } from '../text-diff.js';
import { lineOfOffset, type MatchKind } from '../text-match.js';
import { fileTooLarge, readToEnd, recordOwnWrite, sha256, statRegularFile, withOpenFile } from './editor-files.js';
import { dryRunText } from './dry-run.js';
import { decodeUtf8, encodeUtf8 } from './file-text.js';
import { applyEdits, assertOldStrings, matchOf, MAX_EDITS, type EditsApplied, type StrReplaceEdit } from './str-replace-edits.js';
import { MAX_LINE_CHARS } from './view-lines.js';
import { NamespaceUseCase } from './namespace-use-case.js';

export const TOOL = 'str_replace';

/** Unchanged lines shown before and after an edit in the confirmation. */
const SNIPPET_CONTEXT_LINES = 4;

export interface StrReplaceInput {
  readonly sessionId: string;
  readonly path: string;
  readonly old_str?: string;
  readonly new_str?: string;
  readonly replace_all?: boolean;
  /** Several edits applied in order, all or none; not together with old_str. */
  readonly edits?: readonly StrReplaceEdit[];
  /** Compute and show the change, write nothing. */
  readonly dry_run?: boolean;
}

export interface StrReplaceResult {
  readonly path: string;
  readonly replacements: number;
  /** With edits: the replacements each edit made, in order. */
  readonly replacements_per_edit?: readonly number[];
  /** Bytes after the edit. */
  readonly size: number;
  /** whitespace_tolerant when some old_str matched only with leading/trailing whitespace ignored. */
  readonly match: MatchKind;
  readonly dry_run?: true;
  /** Dry runs: the unified diff of what the call would write... */
  readonly diff?: string;
  /** ...or why it is not shown (too large to make, or to fit max_result_bytes). */
  readonly diff_omitted?: string;
}

export interface StrReplaceOutcome {
  readonly result: StrReplaceResult;
  /** Confirmation with a few numbered lines around the (first) change, or a dry run's diff. */
  readonly text: string;
}

/**
 * Replaces an exact, unique string in a text file (or every occurrence with replace_all),
 * or several in one atomic write. The text is literal (no `$&` or `$1` expansion), the file
 * keeps its line endings and permissions. Gated by the session's view of the file.
 */
export class StrReplace extends NamespaceUseCase {
  async execute(input: StrReplaceInput): Promise<StrReplaceOutcome> {
    const edits = editsOf(input);
    const { session, path, display } = await this.locateFile(TOOL, input.sessionId, input.path);
    await statRegularFile(this.files, path, display);
    const key = await session.fileKey(path);
    const target = { path, display, key };
    // A dry run writes nothing, so it takes no lock and leaves the session's view state as it was.
    const edit = input.dry_run
      ? await this.edit(session, target, edits, true)
      : await session.exclusive(key, () => withFileLock(this.files, path, () => this.edit(session, target, edits, false)));
    const replacements = edit.replacementsPerEdit.reduce((sum, count) => sum + count, 0);
    const result: StrReplaceResult = {
      path: display,
      replacements,
      ...(input.edits !== undefined ? { replacements_per_edit: edit.replacementsPerEdit } : {}),
      size: edit.size,
      match: matchOf(edit),
      ...(edit.diff !== undefined ? { dry_run: true as const, ...edit.diff } : {}),
    };
    return { result, text: confirmation(result, edit, edit.diff) };
  }

  private async edit(session: EditSession, target: { path: RootPath; display: string; key: string }, edits: readonly StrReplaceEdit[], dryRun: boolean) {
    const { path, display, key } = target;
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

    const applied = applyEdits(content, edits, display);
    const after = encodeUtf8(applied.content);
    if (after.length > limit) throw fileTooLarge(display, after.length, limit, 'edited file');
    if (dryRun) return { ...applied, size: after.length, diff: await new DiffBudget(this.settings.maxResultBytes).diff(display, content, applied.content) };
    await atNamespacePath(display, () => this.files.writeFile(path, after, { mode: 'replace', createParents: false, expected: version }));
    await recordOwnWrite(session, this.files, this.hasher, target, after);
    return { ...applied, size: after.length, diff: undefined as DiffField | undefined };
  }
}

/** The call's edits: the top-level old_str as one edit, or edits[]; exactly one of the two. */
function editsOf(input: StrReplaceInput): readonly StrReplaceEdit[] {
  if (input.edits !== undefined) {
    if (input.old_str !== undefined || input.new_str !== undefined || input.replace_all !== undefined) {
      throw new DomainError('INVALID_ARGUMENT', 'give either old_str (with new_str, replace_all) or edits, not both');
    }
    if (input.edits.length < 1 || input.edits.length > MAX_EDITS) {
      throw new DomainError('INVALID_ARGUMENT', `edits takes 1 to ${MAX_EDITS} edits, got ${input.edits.length}`);
    }
    assertOldStrings(input.edits);
    return input.edits;
  }
  if (input.old_str === undefined) throw new DomainError('INVALID_ARGUMENT', 'old_str or edits is required');
  const edits = [{ old_str: input.old_str, new_str: input.new_str, replace_all: input.replace_all }];
  assertOldStrings(edits);
  return edits;
}

function confirmation(result: StrReplaceResult, edit: EditsApplied, diff: DiffField | undefined): string {
  const counted = result.replacements === 1 ? '1 occurrence' : `${result.replacements} occurrences`;
  const edits = result.replacements_per_edit;
  const perEdit = edits ? ` with ${edits.length} edit${edits.length === 1 ? '' : 's'} (${edits.join(', ')})` : '';
  const tolerant =
    edit.tolerant.length === 0
      ? ''
      : ` ${result.replacements_per_edit ? `Edit${edit.tolerant.length > 1 ? 's' : ''} ${edit.tolerant.join(', ')}: ` : ''}` +
        'old_str matched only with leading and trailing whitespace ignored (whitespace_tolerant); new_str was re-indented to the file.';
  if (diff !== undefined) {
    return dryRunText(`Would replace ${counted} in ${result.path}${perEdit}.${tolerant}`, diff);
  }
  return `Edited ${result.path}: replaced ${counted}${perEdit}.${tolerant}\n${editSnippet(edit.content, edit.firstChangeAt, edit.firstChangeLength)}`;
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
