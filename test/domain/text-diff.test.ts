import { applyPatch, createTwoFilesPatch } from 'diff';
import { changedRegion } from '../../src/domain/changed-region.js';
import { DIFF_TOO_LARGE, DiffBudget, MAX_DIFF_EDIT_LINES, MAX_DIFF_REGION_BYTES, MAX_DIFF_VERSION_BYTES, unifiedDiff, VERSION_TOO_LARGE } from '../../src/domain/text-diff.js';

const lines = (count: number, tag: string) => Array.from({ length: count }, (_, i) => `${tag} line ${i}`).join('\n') + '\n';

/** A small deterministic generator, so a failure names its case. */
function* cases(count: number): Generator<[string, string]> {
  let seed = 7;
  const next = (n: number) => ((seed = (seed * 1103515245 + 12345) % 2147483648) % n);
  const words = ['a', 'b', '', 'a b', 'x\r', 'b'];
  const text = () => Array.from({ length: next(12) }, () => words[next(words.length)]).join('\n') + (next(2) ? '\n' : '');
  for (let i = 0; i < count; i += 1) {
    const before = text();
    const after = next(3) === 0 ? text() : before.split('\n').map((line) => (next(5) === 0 ? `${line}!` : line)).join('\n');
    yield [before, after];
  }
}

describe('bounded diffs (issue 32)', () => {
  it('diffs text as diff -u does, headed with the path as the tool names it', async () => {
    expect(await unifiedDiff('/workspace/a.txt', 'one\ntwo\n', 'one\n2\n')).toBe('--- a/workspace/a.txt\n+++ b/workspace/a.txt\n@@ -1,2 +1,2 @@\n one\n-two\n+2\n');
  });

  it('a diff of the changed region only is a patch that turns before into after, numbered in the whole file', async () => {
    for (const [before, after] of cases(150)) {
      const diff = await unifiedDiff('f', before, after);
      expect({ before, after, applied: applyPatch(before, diff!) }).toEqual({ before, after, applied: after });
    }
    const big = lines(50_000, 'same');
    const edited = big.replace('same line 30000\n', 'edited\n');
    const diff = await unifiedDiff('f', big, edited);
    expect(diff).toBe(createTwoFilesPatch('a/f', 'b/f', big, edited, undefined, undefined, { context: 3 }).replace(/^=+\n/, ''));
    expect(diff).toContain('@@ -29998,7 +29998,7 @@');
  });

  it('cuts shared lines at both ends, keeping the context around what differs', () => {
    expect(changedRegion('1\n2\n3\n4\n5\n6\n7\n8\n9\n', '1\n2\n3\n4\nfive\n6\n7\n8\n9\n', 1)).toEqual({ linesBefore: 3, before: '4\n5\n6\n', after: '4\nfive\n6\n' });
    expect(changedRegion('\nx\n', '\ny\n', 3)).toEqual({ linesBefore: 0, before: '\nx\n', after: '\ny\n' });
    expect(changedRegion('same', 'same', 3)).toEqual({ linesBefore: 0, before: 'same', after: 'same' });
    expect(changedRegion('', 'new\n', 3)).toEqual({ linesBefore: 0, before: '', after: 'new\n' });
  });

  it('omits a changed region past the size bound at once, and versions of the journal past theirs unread', async () => {
    const region = MAX_DIFF_REGION_BYTES / 2 + 1;
    expect(await new DiffBudget(1 << 30).diff('a.txt', 'x'.repeat(region), 'y'.repeat(region))).toEqual({ diff_omitted: DIFF_TOO_LARGE });
    expect(await new DiffBudget(1 << 30).bytesDiff('a.txt', new Uint8Array(MAX_DIFF_VERSION_BYTES + 1), Uint8Array.of(1))).toEqual({ diff_omitted: VERSION_TOO_LARGE });
  });

  it('gives up past the edit bound, letting the event loop run meanwhile, while a small edit of the same file is shown', async () => {
    const before = lines(MAX_DIFF_EDIT_LINES, 'old');
    let ticks = 0;
    const timer = setInterval(() => (ticks += 1), 0);
    const rewritten = await new DiffBudget(1 << 30).diff('a.txt', before, lines(MAX_DIFF_EDIT_LINES, 'new'));
    clearInterval(timer);
    expect(rewritten).toEqual({ diff_omitted: DIFF_TOO_LARGE });
    expect(ticks).toBeGreaterThan(0);
    const edited = await new DiffBudget(1 << 30).diff('a.txt', before, before.replace('old line 7\n', 'seven\n'));
    expect(edited).toEqual({ diff: expect.stringContaining('-old line 7\n+seven\n') });
  });

  it('holds the diffs of one result to max_result_bytes together, as JSON-escaped bytes', async () => {
    const budget = new DiffBudget(1024 + 200);
    const first = await budget.diff('a.txt', 'a\n', `${'"'.repeat(40)}\n`);
    expect(first).toHaveProperty('diff');
    const second = await budget.diff('b.txt', 'b\n', `${'"'.repeat(80)}\n`);
    expect(second).toEqual({ diff_omitted: expect.stringMatching(/^too large for max_result_bytes \(\d+ bytes as JSON, \d+ left for diffs in this result\)$/) });
    expect(await budget.bytesDiff('c.bin', Uint8Array.of(0), Uint8Array.of(1))).toBeNull();
    expect(await budget.bytesDiff('c.txt', Uint8Array.of(0xff), Uint8Array.of(0x41))).toBeNull();
  });
});
