import { DomainError } from '../errors.js';
import { applySpans, locate, TOLERANT_MAX_LINES_PER_CALL, type MatchKind, type NearestRegion } from '../text-match.js';
import { MAX_LINE_CHARS } from './view-lines.js';

/** Edits one str_replace call takes at most. */
export const MAX_EDITS = 50;

export interface StrReplaceEdit {
  readonly old_str: string;
  readonly new_str?: string;
  readonly replace_all?: boolean;
}

export interface EditsApplied {
  readonly content: string;
  readonly replacementsPerEdit: readonly number[];
  /** The edits (1-based) that matched only with whitespace ignored. */
  readonly tolerant: readonly number[];
  /** UTF-16 offset and length of the earliest change, in the final content. */
  readonly firstChangeAt: number;
  readonly firstChangeLength: number;
}

export function matchOf(applied: EditsApplied): MatchKind {
  return applied.tolerant.length > 0 ? 'whitespace_tolerant' : 'exact';
}

/**
 * Applies the edits in order, each to the text the previous one left; the first that cannot
 * be placed throws (NO_MATCH or MULTIPLE_MATCHES, naming it when there are several), so the
 * caller writes all of them or none.
 */
export function applyEdits(content: string, edits: readonly StrReplaceEdit[], display: string): EditsApplied {
  const label = (index: number) => editLabel(index, edits.length);
  const replacementsPerEdit: number[] = [];
  const tolerant: number[] = [];
  let text = content;
  let first: { at: number; length: number } | undefined;
  const budget = { remainingLines: TOLERANT_MAX_LINES_PER_CALL };
  edits.forEach((edit, index) => {
    const located = locate(text, { oldStr: edit.old_str, newStr: edit.new_str ?? '', replaceAll: edit.replace_all ?? false }, budget);
    const after = index > 0 ? ` (line numbers in the text as edit${index > 1 ? 's' : ''} 1${index > 1 ? `-${index}` : ''} left it)` : '';
    if (located.found === 'too_many_lines') throw tooManyLines(label(index), display, located.lines);
    if (located.found === 'none') throw noMatch(`${label(index)}old_str not found in ${display}${after}`, located.nearest, display);
    if (located.found === 'several') throw multipleMatches(label(index), display, located, after);
    if (located.kind === 'whitespace_tolerant') tolerant.push(index + 1);
    replacementsPerEdit.push(located.spans.length);
    // Where the earliest change is now: before this edit's first span it stays; after it, it shifts.
    const head = located.spans[0];
    if (first === undefined || head.at <= first.at) {
      first = { at: head.at, length: head.replacement.length };
    } else {
      const before = first.at;
      const shift = located.spans.filter((span) => span.at < before).reduce((sum, span) => sum + span.replacement.length - span.length, 0);
      first = { at: first.at + shift, length: first.length };
    }
    text = applySpans(text, located.spans);
  });
  return { content: text, replacementsPerEdit, tolerant, firstChangeAt: first!.at, firstChangeLength: first!.length };
}

/** `edit 3 of 5: ` when the call has several edits; nothing for one. */
function editLabel(index: number, count: number): string {
  return count > 1 ? `edit ${index + 1} of ${count}: ` : '';
}

/** Refuses an empty old_str before anything is looked up: it would match everywhere. */
export function assertOldStrings(edits: readonly StrReplaceEdit[]): void {
  edits.forEach((edit, index) => {
    if (edit.old_str === '') {
      throw new DomainError('INVALID_ARGUMENT', `${editLabel(index, edits.length)}old_str must not be empty (use create_file to write a whole file)`);
    }
  });
}

function noMatch(head: string, nearest: NearestRegion | 'too_large' | undefined, display: string): DomainError {
  const tail = ', not even line by line with leading and trailing whitespace ignored';
  if (nearest === undefined || nearest === 'too_large') {
    const why = nearest === undefined ? 'no similar region was found' : 'the file and old_str are too large to look for a similar region';
    return new DomainError('NO_MATCH', `${head}${tail}, and ${why}; view the file and copy the text exactly`, { attemptedPath: display });
  }
  const width = Math.max(4, String(nearest.lastLine).length);
  const shown = nearest.lines.map((line, i) => {
    const cut = line.length > MAX_LINE_CHARS ? `${line.slice(0, MAX_LINE_CHARS)}... [truncated, ${line.length} chars total]` : line;
    return `${String(nearest.firstLine + i).padStart(width)}\t${cut}`;
  });
  const more = nearest.lastLine - nearest.firstLine + 1 > shown.length ? `\n(first ${shown.length} lines shown)` : '';
  return new DomainError(
    'NO_MATCH',
    `${head}${tail}. The most similar region is lines ${nearest.firstLine}-${nearest.lastLine} ` +
      `(${Math.round(nearest.similarity * 100)}% alike); copy old_str from it:\n${shown.join('\n')}${more}`,
    { attemptedPath: display },
  );
}

function tooManyLines(label: string, display: string, lines: number): DomainError {
  const limit = TOLERANT_MAX_LINES_PER_CALL.toLocaleString('en-US');
  return new DomainError(
    'INVALID_ARGUMENT',
    `${label}old_str is not in ${display} exactly, and matching it line by line with whitespace ignored is limited to ${limit} file lines ` +
      `per call, all edits together (this one needs ${lines.toLocaleString('en-US')}); copy old_str exactly from the file (view it), or split the edits over several calls`,
    { attemptedPath: display },
  );
}

function multipleMatches(label: string, display: string, several: { kind: MatchKind; count: number; lines: readonly number[] }, after: string): DomainError {
  const named = [...new Set(several.lines)].join(', ') + (several.count > several.lines.length ? ', ...' : '');
  const how =
    several.kind === 'exact'
      ? `old_str occurs ${several.count} times in ${display}`
      : `old_str is not in ${display} exactly, and matches ${several.count} regions with leading and trailing whitespace ignored`;
  return new DomainError(
    'MULTIPLE_MATCHES',
    `${label}${how} (starting on lines ${named})${after}; it must be unique: include more surrounding lines in old_str, or set replace_all to replace every occurrence`,
    { attemptedPath: display },
  );
}

