import { createTwoFilesPatch } from 'diff';

/** Lines of unchanged context around each change, as `diff -u` shows. */
const CONTEXT_LINES = 3;
/** A diff that takes longer than this to compute is shown as one whole-file hunk instead. */
const DIFF_TIMEOUT_MS = 1000;

/**
 * What a dry run shows: a unified diff from `before` to `after`, headed `--- a/<path>` and
 * `+++ b/<path>` with the path as the tool names the file (a leading '/' dropped, so a
 * namespace path reads a/workspace/x). Empty text on either side stands for no file.
 */
export function unifiedDiff(path: string, before: string, after: string): string {
  const name = path.replace(/^\/+/, '');
  const patch = createTwoFilesPatch(`a/${name}`, `b/${name}`, before, after, undefined, undefined, {
    context: CONTEXT_LINES,
    timeout: DIFF_TIMEOUT_MS,
  });
  if (patch === undefined) return wholeFileDiff(name, before, after);
  // The library starts with a line of '=' that no patch tool needs.
  return patch.replace(/^=+\n/, '');
}

/** The diff of two texts that differ too much to compare in time: every old line out, every new line in. */
function wholeFileDiff(name: string, before: string, after: string): string {
  const lines = (text: string) => (text === '' ? [] : text.replace(/\n$/, '').split('\n'));
  const removed = lines(before);
  const added = lines(after);
  const range = (count: number) => `${count === 0 ? 0 : 1},${count}`;
  return [
    `--- a/${name}`,
    `+++ b/${name}`,
    `@@ -${range(removed.length)} +${range(added.length)} @@`,
    ...removed.map((line) => `-${line}`),
    ...added.map((line) => `+${line}`),
  ].join('\n') + '\n';
}
