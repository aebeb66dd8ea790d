import type { FileSystemPort } from '../ports/file-system.port.js';
import type { RootPath } from '../roots.js';
import { DiffBudget, type DiffField } from '../text-diff.js';
import { decodeUtf8, looksBinary, readRange } from './file-text.js';

/** What a dry run answers besides the tool's own fields: nothing was written, and what would change (or why that is not shown). */
export type DryRunFields = { readonly dry_run: true } & DiffField;

/**
 * The diff a dry run of a whole-file write shows, bounded (issue 32) and held to max_result_bytes.
 * `before` is the current text, '' for no file, or undefined when it cannot be shown (binary, not
 * UTF-8, or over max_file_size).
 */
export async function dryRunDiff(path: string, before: string | undefined, after: string, maxResultBytes: number): Promise<DryRunFields> {
  if (before !== undefined) return { dry_run: true, ...(await new DiffBudget(maxResultBytes).diff(path, before, after)) };
  const name = path.replace(/^\/+/, '');
  return { dry_run: true, diff: `Files a/${name} and b/${name} differ (the current content is binary, not UTF-8 or over max_file_size, so it is not shown)\n` };
}

/** The current text of an existing file for a dry run's diff; undefined when it cannot be shown. */
export async function currentText(files: FileSystemPort, path: RootPath, limit: number): Promise<string | undefined> {
  const file = await files.openFile(path);
  try {
    if (file.stat.size > limit) return undefined;
    const bytes = await readRange(file, 0, file.stat.size);
    return looksBinary(bytes) ? undefined : (decodeUtf8(bytes) ?? undefined);
  } finally {
    await file.close();
  }
}

/** The first line of a dry run's text block; the diff (or why it is omitted) follows it. */
export function dryRunText(what: string, fields: DiffField): string {
  return 'diff' in fields ? `Dry run: nothing written. ${what}\n${fields.diff}` : `Dry run: nothing written. ${what}\nDiff omitted: ${fields.diff_omitted}\n`;
}
