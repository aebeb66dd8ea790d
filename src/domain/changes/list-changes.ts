import { DomainError, errors } from '../errors.js';
import type { PathPolicy } from '../path-policy.js';
import type { ChangeJournal, ChangeQuery, ChangeRecord } from '../ports/change-journal.port.js';
import { type PrincipalContext, UNRESTRICTED_PRINCIPAL } from '../principal.js';
import { displayPath } from '../roots.js';
import type { Settings } from '../settings.js';
import { DiffBudget, VERSION_TOO_LARGE } from '../text-diff.js';
import { assertChangeId, assertKnownChange, THE_START } from './change-id.js';
import { matchesQuery } from './change-query.js';
import { viewOf, type ChangeView } from './change-view.js';
import { diffableSizes, hasVersions, type ChangeContents } from './change-contents.js';
import { diffRefusal, mayHash } from './change-access.js';
import type { Snapshots } from './snapshots.js';

export const DEFAULT_LIST_LIMIT = 50;
export const MAX_LIST_LIMIT = 500;

export interface ListChangesInput {
  readonly root?: string;
  readonly path?: string;
  readonly session?: 'this' | 'all';
  readonly limit?: number;
  /** Only changes before this id: the next page, older than the last change a list showed. */
  readonly before_id?: string;
  /** Only changes after this id (THE_START: all): what is new since a list was shown. */
  readonly since_id?: string;
  readonly diff?: boolean;
}

/** Whose changes the current caller sees: its own; the unrestricted principal (stdio, auth none) everybody's. */
export function journalPrincipal(principals: PrincipalContext): string | undefined {
  const principal = principals.current();
  return principal === UNRESTRICTED_PRINCIPAL ? undefined : principal.name;
}

/**
 * list_changes (issue 20): the caller's changes, newest first, on the roots it may use.
 * Security: records of another principal, or of a root outside the caller's grant, are never
 * read out; a root or path given is confined like any tool's.
 */
export class ListChanges {
  constructor(
    private readonly journal: ChangeJournal,
    private readonly paths: PathPolicy,
    private readonly principals: PrincipalContext,
    private readonly contents: ChangeContents,
    private readonly settings: Settings,
    private readonly snapshots: Snapshots,
  ) {}

  async execute(input: ListChangesInput, sessionId: string): Promise<{ changes: ChangeView[]; diffs_omitted?: number }> {
    // No folder shared: NO_ROOTS as every tool answers, not an empty list that reads as "no changes".
    this.paths.assertRootsShared();
    const usable = this.paths.roots.filter((root) => root.allowedTools.size > 0);
    const visible = new Set(usable.map((root) => root.name));
    let path: string | undefined;
    if (input.root !== undefined) {
      const root = this.paths.root(input.root);
      if (!visible.has(root.name)) throw errors.toolNotAllowed('list_changes', root.name);
      if (input.path !== undefined) path = displayPath(this.paths.resolve(root, input.path));
    } else if (input.path !== undefined) {
      throw errors.invalidArgument('list_changes: give root with path (the path is inside that root)');
    }
    if (input.before_id !== undefined) await assertKnownChange(this.journal, journalPrincipal(this.principals), 'before_id', input.before_id);
    if (input.since_id !== undefined) await assertKnownChange(this.journal, journalPrincipal(this.principals), 'since_id', input.since_id);
    const limit = Math.min(input.limit ?? DEFAULT_LIST_LIMIT, MAX_LIST_LIMIT);
    const query: ChangeQuery = {
      principal: journalPrincipal(this.principals),
      root: input.root,
      path,
      session: input.session === 'this' ? sessionId : undefined,
      beforeId: input.before_id,
      afterId: input.since_id === THE_START ? undefined : input.since_id,
      // Filtered by the store, so the limit counts only changes shown: a store stops reading there.
      roots: this.snapshots.rootKeys(usable),
      limit,
    };
    const records = await this.journal.list(query);
    if (!input.diff) return { changes: records.map((record) => this.viewOf(record)) };
    return this.withDiffs(records);
  }

  /**
   * One change of the caller's, with its diff (the whole max_result_bytes for it). Security: the same
   * filter as a list (the caller's principal, roots it may use and serves now), and another
   * principal's id answers NOT_FOUND, as if it did not exist.
   */
  async one(id: string): Promise<ChangeView> {
    this.paths.assertRootsShared();
    assertChangeId('id', id);
    const usable = this.paths.roots.filter((root) => root.allowedTools.size > 0);
    const record = await this.journal.get(id);
    if (record === null || !matchesQuery(record, { principal: journalPrincipal(this.principals), roots: this.snapshots.rootKeys(usable) })) {
      throw new DomainError('NOT_FOUND', `no change ${id} of yours in the journal (wrong id, another principal's, or aged out)`);
    }
    const field = await this.diffOf(record, new DiffBudget(this.settings.maxResultBytes));
    return field === null ? this.viewOf(record) : { ...this.viewOf(record), ...field };
  }

  /**
   * Diffs count against max_result_bytes like any content; one too large to make or to fit is left
   * out, said so on the change (diff_omitted) and counted. Versions too large to diff are not read.
   */
  private async withDiffs(records: readonly ChangeRecord[]): Promise<{ changes: ChangeView[]; diffs_omitted?: number }> {
    // Half of it: the changes' own fields take the rest.
    const budget = new DiffBudget(Math.floor(this.settings.maxResultBytes / 2));
    let omitted = 0;
    const changes: ChangeView[] = [];
    for (const record of records) {
      const view = this.viewOf(record);
      const field = await this.diffOf(record, budget);
      if (field !== null && 'diff_omitted' in field) omitted += 1;
      changes.push(field === null ? view : { ...view, ...field });
    }
    return omitted > 0 ? { changes, diffs_omitted: omitted } : { changes };
  }

  private viewOf(record: ChangeRecord): ChangeView {
    return viewOf(record, mayHash(this.paths, record));
  }

  private async diffOf(record: ChangeRecord, budget: DiffBudget): Promise<{ diff: string } | { diff_omitted: string } | null> {
    if (!hasVersions(record)) return null;
    // Security (issue 33): checked before reading, so no bytes are read for a caller that may not see them.
    const refused = diffRefusal(this.paths, record);
    if (refused !== undefined) return { diff_omitted: refused };
    if (!diffableSizes(record)) return { diff_omitted: VERSION_TOO_LARGE };
    const versions = await this.contents.versions(record);
    return versions === null ? null : budget.bytesDiff(record.toPath ?? record.path, versions.before, versions.after);
  }
}
