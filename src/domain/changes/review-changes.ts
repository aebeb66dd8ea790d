import type { ChangeView } from './change-view.js';
import type { ListChanges } from './list-changes.js';

export interface ReviewChangesInput {
  readonly root?: string;
  readonly path?: string;
  readonly session?: 'this' | 'all';
  readonly since_id?: string;
}

/** The changes to one file (its latest name: a move's destination), newest first. */
export interface FileChanges {
  readonly root: string;
  readonly path: string;
  readonly changes: readonly ChangeView[];
}

export interface ChangesReview {
  readonly changes: ChangeView[];
  readonly diffs_omitted?: number;
  readonly files: readonly FileChanges[];
}

/**
 * review_changes (issue 30.1): what the review app shows, and the same facts for a client without
 * apps. Security: it is list_changes with diffs, so it shows exactly what list_changes shows the caller
 * (its own changes, on roots it may use) and nothing else.
 */
export class ReviewChanges {
  constructor(private readonly listChanges: ListChanges) {}

  async execute(input: ReviewChangesInput, sessionId: string): Promise<ChangesReview> {
    const listed = await this.listChanges.execute({ ...input, diff: true }, sessionId);
    return { ...listed, files: byFile(listed.changes) };
  }
}

/** Grouped by the file each change leaves behind, in the order of each file's newest change. */
export function byFile(changes: readonly ChangeView[]): FileChanges[] {
  const files = new Map<string, { root: string; path: string; changes: ChangeView[] }>();
  for (const change of changes) {
    const root = change.to_root ?? change.root;
    const path = change.to_path ?? change.path;
    const key = `${root}/${path}`;
    let file = files.get(key);
    if (file === undefined) files.set(key, (file = { root, path, changes: [] }));
    file.changes.push(change);
  }
  return [...files.values()];
}
