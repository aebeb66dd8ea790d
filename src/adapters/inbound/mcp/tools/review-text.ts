import type { ChangeView } from '../../../../domain/changes/change-view.js';
import type { ChangesReview } from '../../../../domain/changes/review-changes.js';

/** Diff lines shown per change in the text; the rest are folded into a count (the app shows them all). */
export const FOLDED_DIFF_LINES = 8;

/**
 * review_changes for a client without apps: the facts the app shows, compactly. One file a block,
 * newest first; each change on one line (id, op, tool, time, undoable or why not), its diff folded.
 */
export function reviewText(review: ChangesReview): string {
  const count = review.changes.length;
  if (count === 0) return 'No changes of yours to review (with these filters).';
  const lines = [`${count} change${count === 1 ? '' : 's'} to ${review.files.length} file${review.files.length === 1 ? '' : 's'}, newest first; ids go to undo_changes:`];
  for (const file of review.files) {
    lines.push(`${file.root}/${file.path}`);
    for (const change of file.changes) lines.push(`  ${changeLine(change)}`, ...diffLines(change));
  }
  if (review.diffs_omitted) lines.push(`(${review.diffs_omitted} diffs left out to fit the result)`);
  return lines.join('\n');
}

function changeLine(change: ChangeView): string {
  const moved = change.to_path === undefined ? '' : ` from ${change.root}/${change.path}`;
  const state = change.undoable ? 'undoable' : `not undoable${change.reason ? `: ${change.reason}` : ''}`;
  return `${change.id} ${change.op}${moved} by ${change.tool} at ${change.time}, ${state}`;
}

function diffLines(change: ChangeView): string[] {
  if (change.diff === undefined) return change.diff_omitted ? [`    (diff not shown: ${change.diff_omitted})`] : [];
  // The ---/+++ names before the first hunk repeat the file's heading: only the hunks are shown.
  const all = change.diff.replace(/\n$/, '').split('\n');
  const firstHunk = all.findIndex((line) => line.startsWith('@@'));
  const body = firstHunk < 0 ? all : all.slice(firstHunk);
  const shown = body.slice(0, FOLDED_DIFF_LINES).map((line) => `    ${line}`);
  if (body.length > FOLDED_DIFF_LINES) shown.push(`    (${body.length - FOLDED_DIFF_LINES} more diff lines folded)`);
  return shown;
}
