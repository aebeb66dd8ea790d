import { DomainError, errors } from '../errors.js';
import type { ChangeJournal, ChangeRecord, JournalObserver } from '../ports/change-journal.port.js';
import type { PrincipalContext } from '../principal.js';
import type { RootPath } from '../roots.js';
import type { ToolPolicy } from '../tool-policy.js';
import type { PathPolicy } from '../path-policy.js';
import type { Settings } from '../settings.js';
import { DiffBudget, VERSION_TOO_LARGE } from '../text-diff.js';
import { assertChangeId, assertKnownChange } from './change-id.js';
import { diffableSizes, hasVersions, type ChangeContents } from './change-contents.js';
import { diffRefusal } from './change-access.js';
import { journalPrincipal } from './list-changes.js';
import type { Restorer } from './restorer.js';
import { difference, type Snapshots } from './snapshots.js';
import { UndoSimulation } from './undo-simulation.js';

export interface UndoChangesInput {
  readonly ids?: readonly string[];
  readonly root?: string;
  readonly path?: string;
  readonly since_id?: string;
  /** Whose changes path and since_id select: this session's or all (default: this for the local operator, else all of the principal's). */
  readonly session?: 'this' | 'all';
  readonly dry_run?: boolean;
  readonly force?: boolean;
}

export type UndoOutcome = 'restored' | 'conflict' | 'not_undoable' | 'denied' | 'would_restore';

export interface UndoResult {
  readonly id: string;
  readonly outcome: UndoOutcome;
  readonly op?: ChangeRecord['op'];
  readonly root?: string;
  readonly path?: string;
  /** conflict: what differs from the change's after-state; not_undoable, denied: why; restored: what could not be put back as it was (a folder's mode). */
  readonly reason?: string;
  /** would_restore of a text file: the diff the undo would apply (current -> restored)... */
  readonly diff?: string;
  /** ...or why it is not shown (too large to make, or to fit max_result_bytes). */
  readonly diff_omitted?: string;
}

/** A dry run's state: the undos it played so far, and what is left of max_result_bytes for diffs. */
interface DryRun {
  readonly simulation: UndoSimulation;
  readonly diffs: DiffBudget;
}

/** Changes one call undoes at most (ids: the schema's bound; since_id and path: a larger selection is refused). */
export const MAX_SELECTED = 500;
const EMPTY = new Uint8Array(0);
const NO_SUCH_CHANGE = 'no such change of yours (wrong id, another principal\'s, or aged out of the journal)';

/**
 * undo_changes (issue 20): picks the caller's changes and undoes them newest first. A change whose
 * path no longer holds its after-state is a conflict and left alone unless forced. Each undo is
 * claimed in the journal first, so two undos of one change (two sessions, two replicas) never both
 * restore; the restoring writes go through the journaling file system, so an undo is a change too.
 */
export class UndoChanges {
  constructor(
    private readonly journal: ChangeJournal,
    private readonly paths: PathPolicy,
    private readonly tools: ToolPolicy,
    private readonly principals: PrincipalContext,
    private readonly contents: ChangeContents,
    private readonly snapshots: Snapshots,
    private readonly restorer: Restorer,
    private readonly settings: Pick<Settings, 'maxResultBytes'>,
    private readonly observer?: JournalObserver,
  ) {}

  async execute(input: UndoChangesInput, sessionId: string): Promise<{ results: UndoResult[] }> {
    const results: UndoResult[] = [];
    // A dry run plays its undos in order, so each is checked against what the newer ones would leave (issue 32).
    const dryRun = input.dry_run ? { simulation: new UndoSimulation(this.snapshots), diffs: new DiffBudget(this.settings.maxResultBytes) } : undefined;
    for (const picked of await this.select(input, sessionId)) {
      const result = typeof picked === 'string' ? { id: picked, outcome: 'not_undoable' as const, reason: NO_SUCH_CHANGE } : await this.settle(picked, input, sessionId, dryRun);
      this.observer?.undoOutcome(result.outcome);
      results.push(result);
    }
    return { results };
  }

  /** The records to undo, newest first; an id that is not the caller's stays a bare string. */
  private async select(input: UndoChangesInput, sessionId: string): Promise<(ChangeRecord | string)[]> {
    const selectors = [input.ids !== undefined, input.path !== undefined, input.since_id !== undefined].filter(Boolean).length;
    if (selectors !== 1) throw errors.invalidArgument('undo_changes: give exactly one of ids, path (with root) or since_id');
    if (input.root !== undefined) this.tools.assertAllowed('undo_changes', this.paths.root(input.root));
    const principal = journalPrincipal(this.principals);
    if (input.ids !== undefined) {
      const picked: (ChangeRecord | string)[] = [];
      for (const id of input.ids) assertChangeId('ids', id);
      for (const id of new Set(input.ids)) {
        const record = await this.journal.get(id);
        const theirs = record === null || (principal !== undefined && record.principal !== principal) || !this.snapshots.isHere(record, this.paths.roots);
        picked.push(theirs ? id : record);
      }
      return picked.sort((a, b) => (idOf(a) < idOf(b) ? 1 : -1));
    }
    let path: string | undefined;
    if (input.path !== undefined) {
      if (input.root === undefined) throw errors.invalidArgument('undo_changes: give root with path (the path is inside that root)');
      path = this.contents.shownPath(input.root, input.path);
    }
    if (input.since_id !== undefined) await assertKnownChange(this.journal, principal, 'since_id', input.since_id);
    // One more than may be undone, to tell a selection past the limit from one at it.
    // The local operator's selection stays in this conversation unless asked: every stdio server of the user shares one journal.
    const session = (input.session ?? (principal === undefined ? 'this' : 'all')) === 'this' ? sessionId : undefined;
    const selected = await this.journal.list({ principal, session, root: input.root, path, afterId: input.since_id, limit: MAX_SELECTED + 1, roots: this.snapshots.rootKeys(this.paths.roots) });
    if (selected.length > MAX_SELECTED) {
      // Refused whole, never cut to the newest MAX_SELECTED: a caller told "undone" must not be left with older changes it asked for still in place.
      const what = input.path !== undefined ? `path ${input.path} in root ${input.root}` : `since_id${input.root === undefined ? '' : ` in root ${input.root}`}`;
      throw errors.invalidArgument(`undo_changes: ${what} selects more than ${MAX_SELECTED} of your changes, and one call undoes at most ${MAX_SELECTED}; nothing was undone. Narrow it: a later since_id, a root, or ids from list_changes (before_id pages back to older ones)`);
    }
    return selected;
  }

  /**
   * One change's undo, whatever it meets. Security (issue 33): a change whose path the caller may not
   * reach now (a link on the way leads out of the root, the root's allowlist or the OS refuses) is
   * denied, as that change's own outcome: the call goes on, and the undos it made before stay reported.
   */
  private async settle(record: ChangeRecord, input: UndoChangesInput, sessionId: string, dryRun?: DryRun): Promise<UndoResult> {
    try {
      return await this.undoOne(record, input, sessionId, dryRun);
    } catch (error) {
      if (!(error instanceof DomainError) || failed(error).outcome !== 'denied') throw error;
      return { id: record.id, op: record.op, root: record.root, path: record.path, ...failed(error) };
    }
  }

  private async undoOne(record: ChangeRecord, input: UndoChangesInput, sessionId: string, dryRun?: DryRun): Promise<UndoResult> {
    const shown = { id: record.id, op: record.op, root: record.root, path: record.path };
    // Undone already (by an undo that ran first, here or on another replica): what is there is no
    // longer the change's after-state, a conflict like any other, whichever of two racing undos read it last.
    if (record.undoneBy !== undefined) return { ...shown, outcome: 'conflict', reason: `already undone (by session ${record.undoneBy})` };
    const refused = this.refusal(record);
    if (refused) return { ...shown, ...refused };
    const image = await this.journal.image(record.id);
    if (needsImage(record) && image === null) {
      return { ...shown, outcome: 'not_undoable', reason: 'its before-image is not in the journal (evicted, or not on this replica\'s journal directory)' };
    }
    let source: RootPath;
    let target: RootPath;
    try {
      source = this.contents.source(record);
      target = this.contents.target(record);
    } catch (error) {
      return { ...shown, outcome: 'not_undoable', reason: error instanceof DomainError ? error.message : 'its root is not available' };
    }
    const conflict = await this.conflict(record, source, target, dryRun?.simulation ?? this.snapshots);
    if (conflict !== null && !input.force) return { ...shown, outcome: 'conflict', reason: conflict };
    if (dryRun) {
      try {
        await this.restorer.check(record, image, target, input.force === true, dryRun.simulation);
      } catch (error) {
        if (error instanceof DomainError) return { ...shown, ...failed(error) };
        throw error;
      }
      const preview = await this.preview(record, image?.entries[0]?.content, target, dryRun);
      await dryRun.simulation.undo(record, image, source, target);
      return { ...shown, outcome: 'would_restore', ...preview, ...(record.notRestorable === undefined ? {} : { reason: record.notRestorable }) };
    }
    // The claim is the undo in flight, durable with its plan; the record says undone only once the
    // restore is on disk (each write the restorer makes returns once fsync'd with its folder). A
    // crash in between leaves the claim to start-up recovery (recoverUndos), never a false "undone".
    if (!(await this.journal.claimUndo(record.id, sessionId, input.force === true))) {
      return { ...shown, outcome: 'conflict', reason: 'another undo of this change ran first' };
    }
    let unrestored: string | undefined;
    try {
      unrestored = await this.restorer.restore(record, image, source, target, input.force === true);
    } catch (error) {
      await this.journal.releaseUndo(record.id);
      if (error instanceof DomainError) return { ...shown, ...failed(error) };
      throw error;
    }
    await this.journal.finishUndo(record.id);
    const left = [unrestored, record.notRestorable].filter((part) => part !== undefined);
    return { ...shown, outcome: 'restored', ...(left.length === 0 ? {} : { reason: left.join('; ') }) };
  }

  /** Why this caller may not undo the change at all (not undoable, or denied on one of its roots), or undefined. */
  private refusal(record: ChangeRecord): Pick<UndoResult, 'outcome' | 'reason'> | undefined {
    if (!record.undoable) return { outcome: 'not_undoable', reason: record.reason ?? 'not undoable' };
    for (const root of new Set([record.root, record.toRoot ?? record.root])) {
      try {
        this.tools.assertAllowed('undo_changes', this.paths.root(root));
      } catch (error) {
        if (error instanceof DomainError) return failed(error);
        throw error;
      }
    }
    return undefined;
  }

  /** What differs from the state the change left, or null when the undo may go ahead. */
  private async conflict(record: ChangeRecord, source: RootPath, target: RootPath, paths: Pick<Snapshots, 'state'>): Promise<string | null> {
    const follow = record.op === 'create' || record.op === 'modify';
    const now = await paths.state(target, follow);
    const atTarget = difference(record.after, now);
    if (record.op === 'rmdir' && now !== null && record.after !== null && now.kind === 'directory') return null;
    if (atTarget !== null) return `${record.toPath ?? record.path}: ${atTarget}`;
    if (record.op === 'move' && (await paths.state(source)) !== null) return `${record.path}: something is at the origin again`;
    return null;
  }

  /** The diff the undo would apply to a text file: what is there (once the newer undos ran) -> what it restores. */
  private async preview(record: ChangeRecord, own: Uint8Array | undefined, target: RootPath, dryRun: DryRun): Promise<{ diff: string } | { diff_omitted: string } | Record<string, never>> {
    if (!hasVersions(record)) return {};
    // Security (issue 33): the diff shows the change's bytes, so it needs a read tool on each root it names.
    const refused = diffRefusal(this.paths, record);
    if (refused !== undefined) return { diff_omitted: refused };
    if (!diffableSizes(record)) return { diff_omitted: VERSION_TOO_LARGE };
    // Where a newer undo left the path (emptied it, say), the diff starts from that, not from the change's after-state.
    const simulated = dryRun.simulation.diffBase(target);
    // A forced undo of a change edited since: the diff is from what is there now, what the force writes over.
    const current = simulated === undefined ? ((await this.contents.versions(record))?.after ?? (await this.contents.current(record))) : simulated;
    const restored = own ?? (record.op === 'create' || record.before === null ? EMPTY : undefined);
    if (current === undefined || current === null || restored === undefined) return {};
    return (await dryRun.diffs.bytesDiff(record.toPath ?? record.path, current, restored)) ?? {};
  }
}

/** A refusal met on the way: a denial (path, allowlist or OS permission) or, for any other refusal, a conflict; the message names root, path and why. */
function failed(error: DomainError): Pick<UndoResult, 'outcome' | 'reason'> {
  const denied = error.isSecurityDenial || error.code === 'PERMISSION_DENIED';
  return { outcome: denied ? 'denied' : 'conflict', reason: error.message };
}

function idOf(picked: ChangeRecord | string): string {
  return typeof picked === 'string' ? picked : picked.id;
}

/** Changes that cannot be taken back without their before-image (a copy over a file: that file). */
function needsImage(record: ChangeRecord): boolean {
  if (record.op === 'copy') return record.before?.kind === 'file';
  return record.op === 'modify' || record.op === 'remove' || record.op === 'rmdir';
}
