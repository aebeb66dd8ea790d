import { FOLDED_DIFF_LINES, reviewText } from '../../../../../src/adapters/inbound/mcp/tools/review-text.js';
import type { ChangeView } from '../../../../../src/domain/changes/change-view.js';
import { byFile } from '../../../../../src/domain/changes/review-changes.js';

function change(id: string, fields: Partial<ChangeView>): ChangeView {
  return { id, time: '2026-11-28T10:00:00.000Z', principal: 'alice', session: 's1', tool: 'write_file', op: 'modify', root: 'work', path: 'a.txt', before: null, after: null, undoable: true, ...fields };
}

const review = (changes: ChangeView[], diffsOmitted?: number) => ({ changes, files: byFile(changes), ...(diffsOmitted ? { diffs_omitted: diffsOmitted } : {}) });

// review_changes' text: the app's facts for a client without apps (issue 30.1).
describe('review_changes text', () => {
  it('one block a file, one line a change: id, op, tool, time, undoable or why not; a move shows where from', () => {
    const text = reviewText(review([
      change('00000000000000003', { op: 'move', path: 'old.txt', to_root: 'work', to_path: 'new.txt', tool: 'move' }),
      change('00000000000000002', { diff: '--- a/a.txt\n+++ b/a.txt\n@@ -1 +1,2 @@\n one\n+two\n' }),
      change('00000000000000001', { op: 'create', undoable: false, reason: 'already undone (by session s2)' }),
    ]));
    expect(text.split('\n')).toEqual([
      '3 changes to 2 files, newest first; ids go to undo_changes:',
      'work/new.txt',
      '  00000000000000003 move from work/old.txt by move at 2026-11-28T10:00:00.000Z, undoable',
      'work/a.txt',
      '  00000000000000002 modify by write_file at 2026-11-28T10:00:00.000Z, undoable',
      '    @@ -1 +1,2 @@',
      '     one',
      '    +two',
      '  00000000000000001 create by write_file at 2026-11-28T10:00:00.000Z, not undoable: already undone (by session s2)',
    ]);
  });

  it('folds a long diff after its first lines, and says which diffs were left out and why', () => {
    const added = Array.from({ length: 30 }, (_, index) => `+line ${index}`).join('\n');
    const text = reviewText(review([
      change('00000000000000002', { diff: `--- a/a.txt\n+++ b/a.txt\n@@ -0,0 +1,30 @@\n${added}\n` }),
      change('00000000000000001', { path: 'big.bin', diff_omitted: 'a version is too large to diff' }),
    ], 1));
    expect(text).toContain(`    +line ${FOLDED_DIFF_LINES - 2}\n    (${31 - FOLDED_DIFF_LINES} more diff lines folded)`);
    expect(text).not.toContain(`+line ${FOLDED_DIFF_LINES - 1}`);
    expect(text).toContain('    (diff not shown: a version is too large to diff)');
    expect(text.endsWith('(1 diffs left out to fit the result)')).toBe(true);
  });

  it('says there is nothing to review rather than an empty text', () => {
    expect(reviewText(review([]))).toBe('No changes of yours to review (with these filters).');
  });
});
