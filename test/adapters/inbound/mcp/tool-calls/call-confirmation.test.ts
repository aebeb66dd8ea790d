import { SdkError, SdkErrorCode, type ElicitRequestFormParams, type ElicitResult } from '@modelcontextprotocol/server';
import { canAskInForm, ElicitingConfirmation } from '../../../../../src/adapters/inbound/mcp/tool-calls/call-confirmation.js';

const QUESTION = { root: 'workspace', path: 'big.log', reason: 'the file was larger than the journal keeps', more: 2 };

/** A call whose client answers with `answer` (or fails with it), keeping what it was asked. */
function asker(answer: ElicitResult | Error, options: { signal?: AbortSignal } = {}) {
  const asked: { params: ElicitRequestFormParams; timeout: number }[] = [];
  return {
    kind: 'elicit' as const,
    asked,
    signal: options.signal ?? new AbortController().signal,
    elicit(params: ElicitRequestFormParams, requestOptions: { timeout: number }) {
      asked.push({ params, timeout: requestOptions.timeout });
      return answer instanceof Error ? Promise.reject(answer) : Promise.resolve(answer);
    },
  };
}

describe('ElicitingConfirmation (issue 30.3)', () => {
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
    expect(await confirmation.run(call1, () => confirmation.ask(QUESTION))).toBe(expected);
    expect(call1.asked).toHaveLength(1);
    expect(call1.asked[0].timeout).toBe(5000);
    expect(call1.asked[0].params.message).toBe(
      'Change big.log in root workspace (and 2 more changes like it in this call)? This cannot be undone: the file was larger than the journal keeps.',
    );
    expect(call1.asked[0].params.requestedSchema).toMatchObject({ properties: { confirm: { type: 'boolean' } }, required: ['confirm'] });
  });

  it('answers unavailable, and canAsk is false, for a call run without an asker and outside any call', async () => {
    const confirmation = new ElicitingConfirmation(5000);
    expect(await confirmation.run(undefined, async () => [confirmation.canAsk(), await confirmation.ask(QUESTION)])).toEqual([false, 'unavailable']);
    expect(confirmation.canAsk()).toBe(false);
    expect(await confirmation.ask(QUESTION)).toBe('unavailable');
  });

  it('only form elicitation counts (an empty object is form)', () => {
    expect([undefined, {}, { form: {} }, { url: {} }, { form: {}, url: {} }].map(canAskInForm)).toEqual([false, true, true, false, true]);
  });

  it('a question covering the whole call (journal off) is asked once: accepted, the rest of the call is not asked again', async () => {
    const confirmation = new ElicitingConfirmation(5000);
    const call1 = asker({ action: 'accept', content: { confirm: true } });
    const whole = { root: 'workspace', path: 'a.txt', reason: 'the change journal is off', wholeCall: true };
    const answers = await confirmation.run(call1, async () => [await confirmation.ask(whole), confirmation.canAsk(), await confirmation.ask({ ...whole, path: 'b.txt' })]);
    expect(answers).toEqual(['accepted', false, 'accepted']);
    expect(call1.asked).toHaveLength(1);
    expect(call1.asked[0].params.message).toBe('Change a.txt in root workspace? This cannot be undone: the change journal is off. Your answer covers every such change of this call.');
    // Another call is asked afresh.
    const call2 = asker({ action: 'decline' });
    expect(await confirmation.run(call2, () => confirmation.ask(whole))).toBe('declined');
  });

  it('answers cancelled, without asking, once the call was cancelled', async () => {
    const confirmation = new ElicitingConfirmation(5000);
    const cancelled = new AbortController();
    cancelled.abort();
    const call1 = asker({ action: 'accept', content: { confirm: true } }, { signal: cancelled.signal });
    expect(await confirmation.run(call1, () => confirmation.ask(QUESTION))).toBe('cancelled');
    expect(call1.asked).toEqual([]);
  });
});
