import { createTwoFilesPatch } from 'diff';
import { escapedLength } from './result-budget.js';

/** Lines of unchanged context around each change, as `diff -u` shows. */
const CONTEXT_LINES = 3;
/**
 * Bounds of one diff (issue 32). The library's line diff is Myers' algorithm, whose work grows with
 * the lines times the edit distance: a rewritten file of 480 KB once took 12 s of the main thread.
 * Two versions longer than this together are not diffed at all: splitting them into lines alone
 * holds the event loop for milliseconds per 100 KB.
 */
export const MAX_DIFF_INPUT_BYTES = 256 * 1024;
/** Past this many added plus removed lines the library gives up (its maxEditLength). */
export const MAX_DIFF_EDIT_LINES = 2000;
/** ...and past this much wall time (its timeout); it runs one edit length per macrotask meanwhile. */
const DIFF_TIMEOUT_MS = 2000;
/** What the rest of a result (paths, sizes, the text block's first line) may take besides a diff. */
const RESULT_ENVELOPE_BYTES = 1024;

/** A diff as a result carries it: the diff itself, or why it was left out. */
export type DiffField = { readonly diff: string } | { readonly diff_omitted: string };

export const DIFF_TOO_LARGE = `too large (the versions differ in more than ${MAX_DIFF_EDIT_LINES} lines, or together pass ${MAX_DIFF_INPUT_BYTES / 1024} KB)`;

/**
 * The diffs one result carries, held to max_result_bytes together (counted as they travel:
 * JSON-escaped, twice, once in the text block and once in structuredContent, each within the budget).
 */
export class DiffBudget {
  private remaining: number;

  constructor(maxResultBytes: number) {
    this.remaining = Math.max(0, maxResultBytes - RESULT_ENVELOPE_BYTES);
  }

  /** A unified diff from `before` to `after` (see unifiedDiff), or why it is omitted: too large to make, or to fit. */
  async diff(path: string, before: string, after: string): Promise<DiffField> {
    if (!withinDiffInput(before.length + after.length)) return { diff_omitted: DIFF_TOO_LARGE };
    const diff = await unifiedDiff(path, before, after);
    if (diff === undefined) return { diff_omitted: DIFF_TOO_LARGE };
    return this.take(diff);
  }

  /** The same for bytes: null when either side is not text (a NUL byte, or not UTF-8). */
  async bytesDiff(path: string, before: Uint8Array, after: Uint8Array): Promise<DiffField | null> {
    if (!withinDiffInput(before.byteLength + after.byteLength)) return { diff_omitted: DIFF_TOO_LARGE };
    const decoder = new TextDecoder('utf-8', { fatal: true });
    if (before.includes(0) || after.includes(0)) return null;
    let texts: [string, string];
    try {
      texts = [decoder.decode(before), decoder.decode(after)];
    } catch {
      return null;
    }
    return this.diff(path, ...texts);
  }

  private take(diff: string): DiffField {
    const cost = escapedLength(diff);
    if (cost > this.remaining) return { diff_omitted: `too large for max_result_bytes (${cost} bytes as JSON, ${this.remaining} left for diffs in this result)` };
    this.remaining -= cost;
    return { diff };
  }
}

/** Whether versions of this many bytes (or UTF-16 units) together are diffed at all; checked before reading them. */
export function withinDiffInput(size: number): boolean {
  return size <= MAX_DIFF_INPUT_BYTES;
}

/**
 * A unified diff from `before` to `after`, headed `--- a/<path>` and `+++ b/<path>` with the path as
 * the tool names the file (a leading '/' dropped, so a namespace path reads a/workspace/x). Empty
 * text on either side stands for no file. Undefined past the edit or time bound. The library runs
 * in its callback mode, one edit length per macrotask, so other calls are served in between.
 */
export function unifiedDiff(path: string, before: string, after: string): Promise<string | undefined> {
  const name = path.replace(/^\/+/, '');
  return new Promise((resolve) => {
    createTwoFilesPatch(`a/${name}`, `b/${name}`, before, after, undefined, undefined, {
      context: CONTEXT_LINES,
      maxEditLength: MAX_DIFF_EDIT_LINES,
      timeout: DIFF_TIMEOUT_MS,
      // The library starts with a line of '=' that no patch tool needs.
      callback: (patch: string | undefined) => resolve(patch?.replace(/^=+\n/, '')),
    });
  });
}
