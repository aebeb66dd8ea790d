import { DomainError, inRoot } from '../errors.js';
import type { ChangeAuthor } from '../ports/change-journal.port.js';
import type { Confirmation, ConfirmationAnswer, LossQuestion } from '../ports/confirmation.port.js';

const WHY: Record<Exclude<ConfirmationAnswer, 'accepted' | 'unavailable'>, string> = {
  declined: 'the person declined it',
  cancelled: 'the person cancelled the question',
  timed_out: 'nobody answered the question in time (confirm.timeout_s)',
};

/**
 * Asks before a change the journal could not take back (issue 30.3); returns when it may be made
 * (accepted, or nobody can be asked: today's behaviour), else throws DECLINED and nothing is changed.
 */
export async function confirmLoss(confirmation: Confirmation | undefined, call: ChangeAuthor | undefined, question: LossQuestion): Promise<void> {
  if (confirmation === undefined || call === undefined) return;
  const answer = await confirmation.ask(call, question);
  if (answer === 'accepted' || answer === 'unavailable') return;
  const others = question.more ? ` (and ${question.more} more changes like it)` : '';
  throw new DomainError('DECLINED', `the change was not made, ${WHY[answer]}: ${question.path}${inRoot(question.root)}${others} could not be undone, since ${question.reason}`, {
    root: question.root,
    attemptedPath: question.path,
    cause: answer,
  });
}
