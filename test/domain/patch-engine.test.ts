import { applyPatch, parseUnifiedDiff } from '../../src/domain/patch-engine.js';
import type { RootPath } from '../../src/domain/roots.js';
import { thrownDomainError } from '../support/domain.js';
import { makeRoot } from '../support/roots.js';

const target: RootPath = { root: makeRoot('workspace', '/ws'), segments: ['src', 'code.go'] };

function patched(content: string, diff: string): string {
  return applyPatch(content, parseUnifiedDiff(diff, target), target).content;
}

describe('parseUnifiedDiff', () => {
  it('reads a diff with ---/+++ headers', () => {
    const patch = parseUnifiedDiff('--- a/x\n+++ b/x\n@@ -1,2 +1,2 @@\n a\n-b\n+c\n', target);
    expect(patch.hunks).toHaveLength(1);
    expect(patch.hunks[0].lines.map((line) => line.op)).toEqual([' ', '-', '+']);
  });

  it('accepts bare @@ hunks without file headers', () => {
    expect(parseUnifiedDiff('@@ -1 +1 @@\n-a\n+b\n', target).hunks).toHaveLength(1);
  });

  it('rejects a patch with no hunks', () => {
    const error = thrownDomainError(() => parseUnifiedDiff('--- a/x\n+++ b/x\n', target));
    expect(error.code).toBe('INVALID_ARGUMENT');
    expect(error.message).toBe(
      'invalid patch: no hunks found; expected unified diff hunks starting with "@@ -start,count +start,count @@" (root: workspace)',
    );
  });

  it('rejects plain text', () => {
    expect(thrownDomainError(() => parseUnifiedDiff('just some words', target)).code).toBe('INVALID_ARGUMENT');
  });

  it('rejects a patch that touches several files', () => {
    const diff = '--- a/x\n+++ b/x\n@@ -1 +1 @@\n-a\n+b\n--- a/y\n+++ b/y\n@@ -1 +1 @@\n-a\n+b\n';
    const error = thrownDomainError(() => parseUnifiedDiff(diff, target));
    expect(error.code).toBe('INVALID_ARGUMENT');
    expect(error.message).toContain('changes 2 files');
  });

  it('rejects hunk headers without line numbers', () => {
    const error = thrownDomainError(() => parseUnifiedDiff('@@ @@\n-a\n+b\n', target));
    expect(error.message).toContain('hunk 1 has no line numbers');
  });

  it('takes the line counts from the hunk body when the header miscounts them', () => {
    const diff = '@@ -1,3 +1,7 @@\n a\n-b\n+c\n\n@@ -9 +9 @@\n-x\n+y\n';
    const patch = parseUnifiedDiff(diff, target);
    expect(patch.hunks.map((hunk) => hunk.lines.map((line) => line.op + line.text))).toEqual([
      [' a', '-b', '+c'],
      ['-x', '+y'],
    ]);
  });

  it('reports a hunk line with no valid prefix, rather than dropping it', () => {
    const error = thrownDomainError(() => parseUnifiedDiff('@@ -1,2 +1,2 @@\n a\n*b\n', target));
    expect(error.code).toBe('INVALID_ARGUMENT');
    expect(error.message).toMatch(/^invalid patch: .*invalid line \*b; every hunk line must start with ' ', '-' or '\+' \(root: workspace\)$/);
  });
});

describe('applyPatch', () => {
  it('E2E-001: replaces a word on the only line', () => {
    expect(patched('Hello World\n', '@@ -1 +1 @@\n-Hello World\n+Hello Agent\n')).toBe('Hello Agent\n');
  });

  it('E2E-003: applies a diff whose header overstates the new line count', () => {
    const content = 'package util\n\nfunc Add(a, b int) int {\n\t// TODO: handle overflow\n\treturn a + b\n}\n';
    const diff = '@@ -3,4 +3,7 @@\n func Add(a, b int) int {\n-\t// TODO: handle overflow\n+\tpanic("overflow")\n \treturn a + b\n }\n';
    expect(patched(content, diff)).toBe('package util\n\nfunc Add(a, b int) int {\n\tpanic("overflow")\n\treturn a + b\n}\n');
  });

  it('applies several hunks and counts them', () => {
    const content = Array.from({ length: 20 }, (_, i) => `line ${i + 1}\n`).join('');
    const diff = '@@ -2,3 +2,3 @@\n line 2\n-line 3\n+LINE 3\n line 4\n@@ -17,3 +17,4 @@\n line 17\n+inserted\n line 18\n line 19\n';
    const result = applyPatch(content, parseUnifiedDiff(diff, target), target);
    expect(result.hunksApplied).toBe(2);
    expect(result.content.split('\n').slice(0, 5)).toEqual(['line 1', 'line 2', 'LINE 3', 'line 4', 'line 5']);
    expect(result.content.split('\n').slice(16, 20)).toEqual(['line 17', 'inserted', 'line 18', 'line 19']);
  });

  it('finds a hunk whose header line number is off, carrying the offset to the next hunk', () => {
    const content = 'header\nextra\na\nb\nc\nd\ne\n';
    const diff = '@@ -1,2 +1,2 @@\n a\n-b\n+B\n@@ -4,1 +4,1 @@\n-d\n+D\n';
    expect(patched(content, diff)).toBe('header\nextra\na\nB\nc\nD\ne\n');
  });

  it('E2E-023: a context mismatch names the hunk and the line, and explains the difference', () => {
    const diff = '@@ -1,3 +1,3 @@\n line A\n-line X\n+line Y\n line C\n';
    const error = thrownDomainError(() => patched('line A\nline B\nline C\n', diff));
    expect(error.code).toBe('PATCH_FAILED');
    expect(error.message).toBe(
      'patch failed: hunk 1 does not match at line 1: line 2 is "line B", the patch expects "line X"; src/code.go was not changed (root: workspace)',
    );
  });

  it('fails on the second hunk even when the first one matched (all or nothing)', () => {
    const diff = '@@ -1 +1 @@\n-a\n+A\n@@ -3 +3 @@\n-zzz\n+Z\n';
    const error = thrownDomainError(() => patched('a\nb\nc\n', diff));
    expect(error.message).toMatch(/^patch failed: hunk 2 does not match at line 3: line 3 is "c"/);
  });

  it('reports context past the end of the file', () => {
    const error = thrownDomainError(() => patched('a\n', '@@ -1,2 +1,2 @@\n a\n-b\n+c\n'));
    expect(error.message).toContain('the patch expects "b" at line 2, past the end of the file (1 lines)');
  });

  it('E2E-024: creates content from an empty file', () => {
    expect(patched('', '--- /dev/null\n+++ b/new_file.txt\n@@ -0,0 +1,2 @@\n+first\n+second\n')).toBe('first\nsecond\n');
  });

  it('keeps CRLF line endings and gives added lines the same ending', () => {
    expect(patched('a\r\nb\r\nc\r\n', '@@ -1,3 +1,4 @@\n a\n-b\n+B\n+B2\n c\n')).toBe('a\r\nB\r\nB2\r\nc\r\n');
  });

  it('matches a CRLF patch against an LF file and writes LF', () => {
    expect(patched('a\nb\n', '@@ -1,2 +1,2 @@\r\n a\r\n-b\r\n+c\r\n')).toBe('a\nc\n');
  });

  it('uses the patch line ending for a file that has none yet', () => {
    expect(patched('', '@@ -0,0 +1,2 @@\r\n+a\r\n+b\r\n')).toBe('a\r\nb\r\n');
  });

  it('keeps a missing final newline when the patch does not mention it', () => {
    expect(patched('a\nb', '@@ -1,2 +1,3 @@\n a\n b\n+c\n')).toBe('a\nb\nc');
  });

  it('keeps a final newline that untouched lines carry', () => {
    expect(patched('a\nb\nc\n', '@@ -1 +1 @@\n-a\n+A\n')).toBe('A\nb\nc\n');
  });

  it('removes the final newline when the new side says "No newline at end of file"', () => {
    expect(patched('a\nb\n', '@@ -1,2 +1,2 @@\n a\n-b\n+b\n\\ No newline at end of file\n')).toBe('a\nb');
  });

  it('adds a final newline when only the old side lacked one', () => {
    expect(patched('a\nb', '@@ -1,2 +1,2 @@\n a\n-b\n\\ No newline at end of file\n+b\n')).toBe('a\nb\n');
  });

  it('creates a file without a final newline', () => {
    expect(patched('', '@@ -0,0 +1 @@\n+only\n\\ No newline at end of file\n')).toBe('only');
  });

  it('deletes the last lines of a file', () => {
    expect(patched('a\nb\nc\n', '@@ -1,3 +1,1 @@\n a\n-b\n-c\n')).toBe('a\n');
  });

  it('treats an empty line in a hunk as empty context', () => {
    expect(patched('a\n\nb\n', '@@ -1,3 +1,3 @@\n a\n\n-b\n+B\n')).toBe('a\n\nB\n');
  });

  it('applies a pure insertion at its stated position', () => {
    expect(patched('a\nb\n', '@@ -1,0 +2 @@\n+between\n')).toBe('a\nbetween\nb\n');
  });

  it('refuses a pure insertion past the end of the file', () => {
    const error = thrownDomainError(() => patched('a\n', '@@ -5,0 +6 @@\n+x\n'));
    expect(error.code).toBe('PATCH_FAILED');
    expect(error.message).toContain('the file has only 1 lines');
  });

  it('survives a wildly wrong line number without scanning forever', () => {
    expect(patched('a\nb\n', '@@ -999999999,1 +999999999,1 @@\n-b\n+B\n')).toBe('a\nB\n');
  });
});
