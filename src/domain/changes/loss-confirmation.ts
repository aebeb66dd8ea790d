import { DomainError, inRoot } from '../errors.js';
import type { BeforeImage, ChangeOp } from '../ports/change-journal.port.js';
import type { Confirmation, ConfirmationAnswer, LossQuestion } from '../ports/confirmation.port.js';
import { displayPath, type RootPath } from '../roots.js';

/** A change the journaling file system is about to make, as far as asking about it needs. */
export interface PlannedChange {
  readonly path: RootPath;
  readonly change: { readonly op: ChangeOp; readonly toPath?: RootPath; readonly reason?: string };
  readonly image: BeforeImage | null;
}

/** Why the journal could not take this change back; undefined when it could. */
export function reasonNotUndoable(change: PlannedChange['change'], image: BeforeImage | null): string | undefined {
  const needsImage = change.op === 'modify' || change.op === 'remove' || change.op === 'rmdir';
  return change.reason ?? (needsImage && image === null ? 'no before-image was kept' : undefined);
}

const WHY: Record<Exclude<ConfirmationAnswer, 'accepted' | 'unavailable'>, string> = {
  declined: 'the person declined it',
  cancelled: 'the person cancelled the question',
  timed_out: 'nobody answered the question in time (confirm.timeout_s)',
  deferred: 'the question was put to the client, to be answered when it tries the call again',
};

/**
 * Asks before changes the journal could not take back (issue 30.3), one question for all of them (a
 * tree copy's group) naming the first and counting the others; undoable changes are never asked
 * about. Returns when they may be made (accepted, or nobody can be asked: today's behaviour), else
 * throws DECLINED, before anything is changed.
 */
export async function confirmLoss(confirmation: Confirmation | undefined, planned: readonly PlannedChange[]): Promise<void> {
  if (confirmation === undefined || !confirmation.canAsk()) return;
  const lost = planned.flatMap((item) => {
    const reason = reasonNotUndoable(item.change, item.image);
    // A move's or copy's loss is what it replaces: the destination is named.
    const shown = item.change.toPath ?? item.path;
    return reason === undefined ? [] : [{ root: shown.root.name, path: displayPath(shown), reason }];
  });
  if (lost.length === 0) return;
  await confirmOrDecline(confirmation, { ...lost[0], ...(lost.length > 1 ? { more: lost.length - 1 } : {}) });
}

/** Asks `question`; returns when the change may be made, else throws DECLINED (nothing is changed yet). */
export async function confirmOrDecline(confirmation: Confirmation, question: LossQuestion): Promise<void> {
  const answer = await confirmation.ask(question);
  if (answer === 'accepted' || answer === 'unavailable') return;
  const others = question.more ? ` (and ${question.more} more changes like it)` : '';
  throw new DomainError('DECLINED', `the change was not made, ${WHY[answer]}: ${question.path}${inRoot(question.root)}${others} could not be undone, since ${question.reason}`, {
    root: question.root,
    attemptedPath: question.path,
    cause: answer,
  });
}
