/** A change that cannot be taken back, in the words its person is asked about. */
export interface LossQuestion {
  readonly root: string;
  readonly path: string;
  /** Why no undo could bring back what the change replaces or removes. */
  readonly reason: string;
  /** How many more such changes the same answer covers (a tree copy's group). */
  readonly more?: number;
  /**
   * One answer covers every such change of the call (the change journal is off: every overwrite or
   * removal of the call is alike), so the person is asked once per call.
   */
  readonly wholeCall?: boolean;
}

/**
 * The person's answer. 'unavailable': nobody can be asked (the client cannot, or the call has no
 * client); the change goes ahead as it always did. 'deferred': the question goes back to the client
 * in the call's answer (2026-07-28 input-required) and the call is tried again with the answer;
 * this round changes nothing more.
 */
export type ConfirmationAnswer = 'accepted' | 'declined' | 'cancelled' | 'timed_out' | 'unavailable' | 'deferred';

/**
 * Port: asks the person behind the tool call in progress whether a change that cannot be taken back
 * may be made (issue 30.3). Adapter: MCP elicitation (or an input-required result) of the calling
 * session, bound per call by the inbound adapter.
 */
export interface Confirmation {
  /** Whether the call in progress has anyone to ask: known without I/O, so a call that cannot ask pays for nothing. */
  canAsk(): boolean;
  ask(question: LossQuestion): Promise<ConfirmationAnswer>;
}
