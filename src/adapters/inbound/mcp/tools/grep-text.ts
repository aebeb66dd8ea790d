import type { GrepMatch } from '../../../../domain/search/file-search.js';

/** What grep's text block is made from: its structured result, the counts a last line may mention. */
export interface GrepTextInput {
  readonly matches: readonly GrepMatch[];
  readonly files_searched: number;
  readonly truncated: boolean;
  readonly timed_out: boolean;
  readonly ignored?: number;
}

interface ShownLine {
  readonly text: string;
  match: boolean;
}

/**
 * Issue 19: grep's text block as ripgrep prints it, which a model reads best and which carries the
 * matching lines without the JSON's keys and escapes: `path:line:text` for a match, `path-line-text`
 * for a context line, `--` between groups that are not adjacent (only when context was asked for, as
 * rg does), and one last line for truncated / timed_out / ignored when they apply. A line that is
 * context of one match and a match itself is shown once, as a match.
 */
export function grepText(result: GrepTextInput): string {
  const lines: string[] = [];
  const withContext = result.matches.some((match) => match.context_before.length > 0 || match.context_after.length > 0);
  let previous: { file: string; line: number } | undefined;
  for (const [file, shown] of linesByFile(result.matches)) {
    for (const line of [...shown.keys()].sort((a, b) => a - b)) {
      if (withContext && previous !== undefined && (previous.file !== file || previous.line + 1 !== line)) lines.push('--');
      const { text, match } = shown.get(line)!;
      lines.push(`${file}${match ? ':' : '-'}${line}${match ? ':' : '-'}${text}`);
      previous = { file, line };
    }
  }
  if (result.matches.length === 0) lines.push(`no matches (${result.files_searched} ${result.files_searched === 1 ? 'file' : 'files'} searched)`);
  const notes = lastLineNotes(result);
  if (notes.length > 0) lines.push(`[${notes.join('; ')}]`);
  return lines.join('\n');
}

/** Each file's lines to show, by line number, files in the order their first match came. */
function linesByFile(matches: readonly GrepMatch[]): Map<string, Map<number, ShownLine>> {
  const files = new Map<string, Map<number, ShownLine>>();
  for (const match of matches) {
    let shown = files.get(match.file);
    if (shown === undefined) files.set(match.file, (shown = new Map()));
    const context = (line: number, text: string) => {
      if (!shown.has(line)) shown.set(line, { text, match: false });
    };
    match.context_before.forEach((text, index) => context(match.line_number - match.context_before.length + index, text));
    shown.set(match.line_number, { text: match.line_content, match: true });
    match.context_after.forEach((text, index) => context(match.line_number + 1 + index, text));
  }
  return files;
}

function lastLineNotes(result: GrepTextInput): string[] {
  const notes: string[] = [];
  if (result.truncated) notes.push(`truncated: ${result.matches.length} matches shown, more exist (narrow the search or raise max_results)`);
  if (result.timed_out) notes.push('timed_out: the search stopped at its deadline, results are partial');
  if (result.ignored !== undefined && result.ignored > 0) {
    notes.push(`ignored: ${result.ignored} ${result.ignored === 1 ? 'entry' : 'entries'} skipped by ignore files (ignore: "none" searches them)`);
  }
  return notes;
}
