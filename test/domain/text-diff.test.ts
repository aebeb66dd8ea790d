import { DIFF_TOO_LARGE, DiffBudget, MAX_DIFF_EDIT_LINES, MAX_DIFF_INPUT_BYTES, unifiedDiff } from '../../src/domain/text-diff.js';

const lines = (count: number, tag: string) => Array.from({ length: count }, (_, i) => `${tag} line ${i}`).join('\n') + '\n';

describe('bounded diffs (issue 32)', () => {
  it('diffs text as diff -u does, headed with the path as the tool names it', async () => {
    expect(await unifiedDiff('/workspace/a.txt', 'one\ntwo\n', 'one\n2\n')).toBe('--- a/workspace/a.txt\n+++ b/workspace/a.txt\n@@ -1,2 +1,2 @@\n one\n-two\n+2\n');
  });

  it('omits, without reading them as lines, versions that together pass the input bound', async () => {
    const big = 'x'.repeat(MAX_DIFF_INPUT_BYTES / 2 + 1);
    expect(await new DiffBudget(1 << 30).diff('a.txt', big, `${big}y`)).toEqual({ diff_omitted: DIFF_TOO_LARGE });
    expect(await new DiffBudget(1 << 30).bytesDiff('a.txt', new Uint8Array(MAX_DIFF_INPUT_BYTES), Uint8Array.of(1))).toEqual({ diff_omitted: DIFF_TOO_LARGE });
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
