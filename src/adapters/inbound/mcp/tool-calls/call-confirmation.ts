import { type ElicitRequestFormParams, type ElicitResult, SdkError, SdkErrorCode } from '@modelcontextprotocol/server';
import type { ChangeAuthor } from '../../../../domain/ports/change-journal.port.js';
import type { Confirmation, ConfirmationAnswer, LossQuestion } from '../../../../domain/ports/confirmation.port.js';

/** Where one tool call's person can be asked: the call's own elicitation (2025-era request) and its signal. */
export interface CallAsker {
  /** Whether the session's client declared form elicitation (an empty elicitation object counts as form). */
  readonly canElicit: boolean;
  elicit(params: ElicitRequestFormParams, options: { timeout: number; signal: AbortSignal }): Promise<ElicitResult>;
  readonly signal: AbortSignal;
}

/**
 * Confirmation through MCP elicitation (2025-11-25, form mode): the question goes to the client of
 * the calling session, on the call's own request (so over HTTP it travels on that call's stream),
 * with one boolean field "confirm". Bound per call, keyed by the call's author object (the same one
 * the journal is handed), so a question only ever reaches the session whose call asks it.
 */
export class ElicitingConfirmation implements Confirmation {
  private readonly calls = new WeakMap<ChangeAuthor, CallAsker>();

  constructor(private readonly timeoutMs: number) {}

  /** Where the call of `author` may ask, until the returned function is called (when the call ends). */
  bind(author: ChangeAuthor, asker: CallAsker): () => void {
    this.calls.set(author, asker);
    return () => this.calls.delete(author);
  }

  async ask(call: ChangeAuthor, question: LossQuestion): Promise<ConfirmationAnswer> {
    const asker = this.calls.get(call);
    // Without the capability: today's behaviour, the change is made without asking.
    if (asker === undefined || !asker.canElicit) return 'unavailable';
    if (asker.signal.aborted) return 'cancelled';
    try {
      const result = await asker.elicit(
        {
          mode: 'form',
          message: messageOf(question),
          requestedSchema: {
            type: 'object',
            properties: { confirm: { type: 'boolean', title: 'Make this change', description: 'It cannot be undone afterwards', default: false } },
            required: ['confirm'],
          },
        },
        { timeout: this.timeoutMs, signal: asker.signal },
      );
      if (result.action === 'cancel') return 'cancelled';
      return result.action === 'accept' && result.content?.confirm === true ? 'accepted' : 'declined';
    } catch (error) {
      if (error instanceof SdkError && error.code === SdkErrorCode.RequestTimeout) return 'timed_out';
      // The call was cancelled, the client went away or answered something else: nothing is changed.
      return 'cancelled';
    }
  }
}

function messageOf(question: LossQuestion): string {
  const others = question.more ? ` (and ${question.more} more changes like it in this call)` : '';
  return `Change ${question.path} in root ${question.root}${others}? This cannot be undone: ${question.reason}.`;
}
