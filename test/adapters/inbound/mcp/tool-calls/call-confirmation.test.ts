import { SdkError, SdkErrorCode, type ElicitRequestFormParams, type ElicitResult } from '@modelcontextprotocol/server';
import { ElicitingConfirmation } from '../../../../../src/adapters/inbound/mcp/tool-calls/call-confirmation.js';
import type { ChangeAuthor } from '../../../../../src/domain/ports/change-journal.port.js';

const QUESTION = { root: 'workspace', path: 'big.log', reason: 'the file was larger than the journal keeps', more: 2 };

/** A call whose client answers with `answer` (or fails with it), keeping what it was asked. */
function asker(answer: ElicitResult | Error, options: { canElicit?: boolean; signal?: AbortSignal } = {}) {
  const asked: { params: ElicitRequestFormParams; timeout: number }[] = [];
  return {
    asked,
    canElicit: options.canElicit ?? true,
    signal: options.signal ?? new AbortController().signal,
    elicit(params: ElicitRequestFormParams, requestOptions: { timeout: number }) {
      asked.push({ params, timeout: requestOptions.timeout });
      return answer instanceof Error ? Promise.reject(answer) : Promise.resolve(answer);
    },
  };
}

describe('ElicitingConfirmation (issue 30.3)', () => {
  const call: ChangeAuthor = { principal: 'local', session: 's1', tool: 'write_file' };

  it.each([
    [{ action: 'accept', content: { confirm: true } }, 'accepted'],
    [{ action: 'accept', content: { confirm: false } }, 'declined'],
    [{ action: 'decline' }, 'declined'],
    [{ action: 'cancel' }, 'cancelled'],
    [new SdkError(SdkErrorCode.RequestTimeout, 'timed out'), 'timed_out'],
    [new Error('connection closed'), 'cancelled'],
  ] as const)('maps %j to %s', async (answer, expected) => {
    const confirmation = new ElicitingConfirmation(5000);
    const call1 = asker(answer as ElicitResult | Error);
    confirmation.bind(call, call1);
    expect(await confirmation.ask(call, QUESTION)).toBe(expected);
    expect(call1.asked).toHaveLength(1);
    expect(call1.asked[0].timeout).toBe(5000);
    expect(call1.asked[0].params.message).toBe(
      'Change big.log in root workspace (and 2 more changes like it in this call)? This cannot be undone: the file was larger than the journal keeps.',
    );
    expect(call1.asked[0].params.requestedSchema).toMatchObject({ properties: { confirm: { type: 'boolean' } }, required: ['confirm'] });
  });

  it('answers unavailable without asking for a client without form elicitation, and for a call never bound or ended', async () => {
    const confirmation = new ElicitingConfirmation(5000);
    const incapable = asker({ action: 'accept', content: { confirm: true } }, { canElicit: false });
    const unbind = confirmation.bind(call, incapable);
    expect(await confirmation.ask(call, QUESTION)).toBe('unavailable');
    unbind();
    confirmation.bind({ ...call }, asker({ action: 'accept', content: { confirm: true } }));
    expect(await confirmation.ask(call, QUESTION)).toBe('unavailable');
    expect(incapable.asked).toEqual([]);
  });

  it('answers cancelled, without asking, once the call was cancelled', async () => {
    const confirmation = new ElicitingConfirmation(5000);
    const cancelled = new AbortController();
    cancelled.abort();
    const call1 = asker({ action: 'accept', content: { confirm: true } }, { signal: cancelled.signal });
    confirmation.bind(call, call1);
    expect(await confirmation.ask(call, QUESTION)).toBe('cancelled');
    expect(call1.asked).toEqual([]);
  });
});
