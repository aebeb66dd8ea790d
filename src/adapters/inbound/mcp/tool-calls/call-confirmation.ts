import { AsyncLocalStorage } from 'node:async_hooks';
import { type ElicitRequestFormParams, type ElicitResult, SdkError, SdkErrorCode } from '@modelcontextprotocol/server';
import type { Confirmation, ConfirmationAnswer, LossQuestion } from '../../../../domain/ports/confirmation.port.js';

/** Where one 2025-era tool call's person is asked: the call's own elicitation request and its signal. */
export interface ElicitingAsker {
  readonly kind: 'elicit';
  elicit(params: ElicitRequestFormParams, options: { timeout: number; signal: AbortSignal }): Promise<ElicitResult>;
  readonly signal: AbortSignal;
}

/**
 * Where one 2026-07-28 tool call's person is asked: an input-required result (see ConfirmationRound).
 * `answered` gives what the person said in an earlier round, or undefined; `defer` keeps the
 * question for the call's answer.
 */
export interface DeferringAsker {
  readonly kind: 'defer';
  answered(question: LossQuestion): ConfirmationAnswer | undefined;
  defer(question: LossQuestion): void;
}

export type CallAsker = ElicitingAsker | DeferringAsker;

interface Asking {
  readonly asker: CallAsker;
  /** A question covering the whole call (the journal is off) was accepted: nothing more is asked in this call. */
  wholeCallAccepted: boolean;
}

/** Whether declared elicitation capabilities include form mode (an empty elicitation object counts as form). */
export function canAskInForm(elicitation: unknown): boolean {
  if (elicitation === null || typeof elicitation !== 'object') return false;
  return Object.keys(elicitation).length === 0 || (elicitation as { form?: unknown }).form !== undefined;
}

/** The form every question is asked with: one boolean field "confirm". */
export function questionForm(question: LossQuestion): ElicitRequestFormParams {
  return {
    mode: 'form',
    message: messageOf(question),
    requestedSchema: {
      type: 'object',
      properties: { confirm: { type: 'boolean', title: 'Make this change', description: 'It cannot be undone afterwards', default: false } },
      required: ['confirm'],
    },
  };
}

/** What an elicitation result means for the question (only an explicit confirm: true accepts). */
export function answerOf(result: { action: string; content?: Record<string, unknown> }): ConfirmationAnswer {
  if (result.action === 'cancel') return 'cancelled';
  return result.action === 'accept' && result.content?.confirm === true ? 'accepted' : 'declined';
}

/**
 * Confirmation through MCP: 2025-11-25 elicitation (form mode) on the call's own request, so over
 * HTTP it travels on that call's stream, or a 2026-07-28 input-required result. Bound per call by
 * `run` (its own binding, whether the journal is on or off), so a question only ever reaches the
 * session whose call asks it.
 *
 * Cost: a call that cannot ask (no capability, or a read-only tool) runs outside any store, so it
 * pays for no AsyncLocalStorage and canAsk() says false without I/O.
 */
export class ElicitingConfirmation implements Confirmation {
  private readonly calls = new AsyncLocalStorage<Asking>();

  constructor(readonly timeoutMs: number) {}

  /** Runs a call's `action` with `asker` as where its person is asked; undefined: nobody can be asked. */
  run<T>(asker: CallAsker | undefined, action: () => Promise<T>): Promise<T> {
    return asker === undefined ? action() : this.calls.run({ asker, wholeCallAccepted: false }, action);
  }

  canAsk(): boolean {
    const asking = this.calls.getStore();
    return asking !== undefined && !asking.wholeCallAccepted;
  }

  async ask(question: LossQuestion): Promise<ConfirmationAnswer> {
    const asking = this.calls.getStore();
    // Without the capability: today's behaviour, the change is made without asking.
    if (asking === undefined) return 'unavailable';
    if (asking.wholeCallAccepted) return 'accepted';
    const answer = await this.answer(asking.asker, question);
    if (answer === 'accepted' && question.wholeCall) asking.wholeCallAccepted = true;
    return answer;
  }

  private async answer(asker: CallAsker, question: LossQuestion): Promise<ConfirmationAnswer> {
    if (asker.kind === 'defer') {
      const answered = asker.answered(question);
      if (answered !== undefined) return answered;
      asker.defer(question);
      return 'deferred';
    }
    if (asker.signal.aborted) return 'cancelled';
    try {
      return answerOf(await asker.elicit(questionForm(question), { timeout: this.timeoutMs, signal: asker.signal }));
    } catch (error) {
      if (error instanceof SdkError && error.code === SdkErrorCode.RequestTimeout) return 'timed_out';
      // The call was cancelled, the client went away or answered something else: nothing is changed.
      return 'cancelled';
    }
  }
}

function messageOf(question: LossQuestion): string {
  const others = question.more ? ` (and ${question.more} more changes like it in this call)` : '';
  const whole = question.wholeCall ? ' Your answer covers every such change of this call.' : '';
  return `Change ${question.path} in root ${question.root}${others}? This cannot be undone: ${question.reason}.${whole}`;
}
