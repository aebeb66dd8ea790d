import { createHash, randomBytes } from 'node:crypto';
import { createRequestStateCodec, inputRequired, inputResponse, type InputRequiredResult, type RequestStateCodec, type ServerContext } from '@modelcontextprotocol/server';
import { DomainError } from '../../../../domain/errors.js';
import type { ConfirmationAnswer, LossQuestion } from '../../../../domain/ports/confirmation.port.js';
import { answerOf, type DeferringAsker, questionForm } from './call-confirmation.js';

/** The key of the one question an input-required result carries (in inputRequests and inputResponses). */
const KEY = 'confirm';

/** What a call's rounds have learned, carried by the client from round to round (signed, not secret). */
interface RoundState {
  /** Digest of principal, tool and arguments: the one call these approvals are for. */
  readonly call: string;
  /** The questions the person accepted in earlier rounds. */
  readonly approved: readonly string[];
  /** The question the previous round put to the person, answered in this round's inputResponses. */
  readonly asked: string;
}

/** Who makes which call: what an approval is bound to. */
export interface ConfirmedCall {
  readonly principal: string;
  readonly tool: string;
  readonly args: unknown;
}

/**
 * Asking 2026-07-28 clients (SEP-2322): there are no server-to-client requests, so a call that needs
 * an answer stops before the change and answers input-required with the question (a form
 * elicitation); the client retries the same call with the person's answer. Each round adds one
 * approval; a call may need several. Approvals ride in `requestState`.
 *
 * Security: requestState comes back from the client, so it is HMAC-signed (a per-process random
 * key: a retry must reach the process that asked), expires after confirm.timeout_s, and names the
 * digest of principal + tool + arguments: a client can neither forge an approval nor replay one
 * for another call, another principal or other arguments. A state that fails any check is refused
 * before the tool runs, and nothing changes.
 */
export class ConfirmationRounds {
  private readonly codec: RequestStateCodec<RoundState>;

  constructor(timeoutSeconds: number, key: Uint8Array = randomBytes(32)) {
    this.codec = createRequestStateCodec<RoundState>({ key, ttlSeconds: timeoutSeconds });
  }

  /** The round of `call`: fresh, or what its requestState and the person's answer say. INVALID_ARGUMENT for a bad requestState. */
  async open(ctx: ServerContext, call: ConfirmedCall): Promise<ConfirmationRound> {
    const digest = digestOf(call);
    const raw = ctx.mcpReq.requestState<unknown>();
    if (raw === undefined) return new ConfirmationRound(digest, new Set(), undefined);
    let state: RoundState;
    try {
      if (typeof raw !== 'string') throw new Error('malformed');
      state = await this.codec.verify(raw, ctx);
      if (state.call !== digest) throw new Error('bind');
    } catch (error) {
      const why = error instanceof Error && error.message === 'expired' ? 'it has expired (confirm.timeout_s)' : 'it was not issued by this server for this call';
      throw new DomainError('INVALID_ARGUMENT', `requestState refused, ${why}: nothing was changed; call the tool again without it`, { cause: 'request_state' });
    }
    const answer = inputResponse(ctx.mcpReq.inputResponses, KEY);
    return new ConfirmationRound(digest, new Set(state.approved), answer.kind === 'elicit' ? { key: state.asked, answer: answerOf(answer) } : undefined);
  }

  /** The input-required result that puts the round's question, or undefined when none was deferred. */
  async inputRequiredOf(round: ConfirmationRound): Promise<InputRequiredResult | undefined> {
    const question = round.deferred;
    if (question === undefined) return undefined;
    const requestState = await this.codec.mint({ call: round.digest, approved: [...round.approved], asked: keyOf(question) });
    return inputRequired({ inputRequests: { [KEY]: inputRequired.elicit(questionForm(question)) }, requestState });
  }
}

/** One round of a call: answers what earlier rounds settled, and keeps the first question they did not. */
export class ConfirmationRound implements DeferringAsker {
  readonly kind = 'defer';
  deferred: LossQuestion | undefined;

  constructor(
    readonly digest: string,
    readonly approved: Set<string>,
    private readonly asked: { readonly key: string; readonly answer: ConfirmationAnswer } | undefined,
  ) {}

  answered(question: LossQuestion): ConfirmationAnswer | undefined {
    const key = keyOf(question);
    if (this.approved.has(key)) return 'accepted';
    if (this.asked?.key !== key) return undefined;
    if (this.asked.answer === 'accepted') this.approved.add(key);
    return this.asked.answer;
  }

  defer(question: LossQuestion): void {
    this.deferred ??= question;
  }
}

/** A question's identity across rounds: a call over the journal-off rule is one question, whatever it names. */
function keyOf(question: LossQuestion): string {
  return question.wholeCall ? 'journal-off' : sha256(`${question.root}\0${question.path}\0${question.reason}`);
}

function digestOf(call: ConfirmedCall): string {
  return sha256(`${call.principal}\0${call.tool}\0${stableJson(call.args)}`);
}

function sha256(text: string): string {
  return createHash('sha256').update(text).digest('base64url');
}

/** JSON with object keys sorted, so the same arguments give the same digest however the client ordered them. */
function stableJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(stableJson).join(',')}]`;
  if (value !== null && typeof value === 'object') {
    const entries = Object.entries(value as Record<string, unknown>).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([key, item]) => `${JSON.stringify(key)}:${stableJson(item)}`).join(',')}}`;
  }
  return JSON.stringify(value) ?? 'null';
}
