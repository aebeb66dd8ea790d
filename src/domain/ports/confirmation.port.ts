import type { ChangeAuthor } from './change-journal.port.js';

/** A change that cannot be taken back, in the words its person is asked about. */
export interface LossQuestion {
  readonly root: string;
  readonly path: string;
  /** Why no undo could bring back what the change replaces or removes. */
  readonly reason: string;
  /** How many more such changes the same answer covers (a tree copy's group). */
  readonly more?: number;
}

/**
 * The person's answer. 'unavailable': nobody can be asked (the client cannot, or the call has no
 * client); the change goes ahead as it always did.
 */
export type ConfirmationAnswer = 'accepted' | 'declined' | 'cancelled' | 'timed_out' | 'unavailable';

/**
 * Port: asks the person behind the call `call` (the author object of the call in progress) whether a
 * change that cannot be taken back may be made (issue 30.3). Adapter: MCP elicitation in the
 * calling session.
 */
export interface Confirmation {
  ask(call: ChangeAuthor, question: LossQuestion): Promise<ConfirmationAnswer>;
}
