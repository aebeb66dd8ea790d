import { formatPatch, structuredPatch, type StructuredPatch } from 'diff';
import { changedRegion } from './changed-region.js';
import { escapedLength } from './result-budget.js';

/** Lines of unchanged context around each change, as `diff -u` shows. */
const CONTEXT_LINES = 3;
/**
 * Bounds of one diff (issue 32). The library's line diff is Myers' algorithm, whose work grows with
 * the lines times the edit distance: a rewritten file of 480 KB once took 12 s of the main thread.
 * Only the changed region goes to it (the lines both versions share at their start and end are cut
 * first), and a region longer than this on its two sides together is not diffed: splitting it into
 * lines alone holds the event loop for milliseconds per 100 KB.
 */
export const MAX_DIFF_REGION_BYTES = 256 * 1024;
/** Past this many added plus removed lines the library gives up (its maxEditLength). */
export const MAX_DIFF_EDIT_LINES = 1000;
/** ...and past this much wall time (its timeout); it runs one edit length per macrotask meanwhile. */
const DIFF_TIMEOUT_MS = 2000;
/**
 * A journaled version larger than this is not read for a diff (list_changes, an undo's dry run):
 * reading one hashes and decodes it, milliseconds per MiB, for each change listed.
 */
export const MAX_DIFF_VERSION_BYTES = 1024 * 1024;
/** What the rest of a result (paths, sizes, the text block's first line) may take besides a diff. */
const RESULT_ENVELOPE_BYTES = 1024;

/** A diff as a result carries it: the diff itself, or why it was left out. */
export type DiffField = { readonly diff: string } | { readonly diff_omitted: string };

export const DIFF_TOO_LARGE = `too large (the versions differ in more than ${MAX_DIFF_EDIT_LINES} lines or ${MAX_DIFF_REGION_BYTES / 1024} KB)`;
export const VERSION_TOO_LARGE = `too large (a version is over ${MAX_DIFF_VERSION_BYTES / 1024 / 1024} MiB, which diffs of the journal do not read)`;

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
    const diff = await unifiedDiff(path, before, after);
    return diff === undefined ? { diff_omitted: DIFF_TOO_LARGE } : this.take(diff);
  }

  /** The same for two versions of a file: null when either is not text (a NUL byte, or not UTF-8). */
  async bytesDiff(path: string, before: Uint8Array, after: Uint8Array): Promise<DiffField | null> {
    if (!diffableVersion(before.byteLength) || !diffableVersion(after.byteLength)) return { diff_omitted: VERSION_TOO_LARGE };
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

/** Whether a journaled version of this many bytes is read for a diff; checked before reading it. */
export function diffableVersion(size: number): boolean {
  return size <= MAX_DIFF_VERSION_BYTES;
}

/**
 * A unified diff from `before` to `after`, headed `--- a/<path>` and `+++ b/<path>` with the path as
 * the tool names the file (a leading '/' dropped, so a namespace path reads a/workspace/x). Empty
 * text on either side stands for no file. Undefined past the size, edit or time bound. The library
 * runs in its callback mode, one edit length per macrotask, so other calls are served in between.
 */
export async function unifiedDiff(path: string, before: string, after: string): Promise<string | undefined> {
  const name = path.replace(/^\/+/, '');
  const region = changedRegion(before, after, CONTEXT_LINES);
  if (region.before.length + region.after.length > MAX_DIFF_REGION_BYTES) return undefined;
  const patch = await new Promise<StructuredPatch | undefined>((resolve) => {
    structuredPatch(`a/${name}`, `b/${name}`, region.before, region.after, undefined, undefined, {
      context: CONTEXT_LINES,
      maxEditLength: MAX_DIFF_EDIT_LINES,
      timeout: DIFF_TIMEOUT_MS,
      callback: (made: StructuredPatch | undefined) => resolve(made),
    });
  });
  if (patch === undefined) return undefined;
  // The region starts after the lines cut before it: its hunks are numbered in the whole file.
  for (const hunk of patch.hunks) {
    hunk.oldStart += region.linesBefore;
    hunk.newStart += region.linesBefore;
  }
  // The library starts with a line of '=' that no patch tool needs.
  return formatPatch(patch).replace(/^=+\n/, '');
}
