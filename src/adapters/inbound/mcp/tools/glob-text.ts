import type { GlobMatch } from '../../../../domain/tools/glob.js';

/** What glob's text block is made from: its structured result. */
export interface GlobTextInput {
  readonly matches: readonly GlobMatch[];
  readonly truncated: boolean;
  readonly timed_out: boolean;
  readonly ignored?: number;
}

/**
 * Issue 31.2: glob's text block as `rg --files` prints a listing: one path a line, a directory's with
 * a trailing `/`, then one last line for truncated / timed_out / ignored when they apply. The JSON of
 * the result, sent again as text, doubled the message (25,105 matches: 5.6 MB) and repeated four keys
 * per entry for the model to read; size, modified_at and the kind of a link or special file stay in
 * structuredContent. A path a line cannot hold as it is (a control character such as a newline, or a
 * leading `"` or `[` that would pass for a quoted path or the last line) is written as a JSON string.
 */
export function globText(result: GlobTextInput): string {
  let text = '';
  for (const match of result.matches) {
    const shown = NEEDS_QUOTES.test(match.path) ? JSON.stringify(match.path) : match.path;
    text += (match.type === 'directory' ? `${shown}/` : shown) + '\n';
  }
  if (result.matches.length === 0) text += 'no matches\n';
  const notes = lastLineNotes(result);
  return notes.length > 0 ? `${text}[${notes.join('; ')}]` : text.slice(0, -1);
}

const NEEDS_QUOTES = /^["[]|[\u0000-\u001f\u007f]/;

function lastLineNotes(result: GlobTextInput): string[] {
  const notes: string[] = [];
  const entries = (count: number) => `${count} ${count === 1 ? 'entry' : 'entries'}`;
  if (result.truncated) notes.push(`truncated: ${entries(result.matches.length)} shown, more match (narrow the pattern or path, or raise max_results)`);
  if (result.timed_out) notes.push('timed_out: the search stopped at its deadline, results are partial');
  if (result.ignored !== undefined && result.ignored > 0) notes.push(`ignored: ${entries(result.ignored)} skipped by ignore files (ignore: "none" searches them)`);
  return notes;
}
