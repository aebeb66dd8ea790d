import { jest } from '@jest/globals';
import { PROGRESS_INTERVAL_MS, startCallWork } from '../../../../../src/adapters/inbound/mcp/protocol/call-work.js';

type Sent = { progressToken: string | number; progress: number; total?: number; message?: string };

function facts(progressToken?: string | number) {
  const controller = new AbortController();
  const sent: Sent[] = [];
  return {
    controller,
    sent,
    facts: { signal: controller.signal, progressToken, sendProgress: async (params: Sent) => void sent.push(params) },
  };
}

describe('startCallWork (progress throttling and the abort signal)', () => {
  beforeEach(() => jest.useFakeTimers());
  afterEach(() => jest.useRealTimers());

  it('sends only the latest value per interval, only when it increased, and nothing after stop', () => {
    const { sent, facts: requestFacts } = facts('tok');
    const call = startCallWork(requestFacts);
    for (let done = 1; done <= 100; done++) call.work.progress?.(done, 1000, 'bytes hashed');
    jest.advanceTimersByTime(PROGRESS_INTERVAL_MS);
    expect(sent).toEqual([{ progressToken: 'tok', progress: 100, total: 1000, message: 'bytes hashed' }]);
    jest.advanceTimersByTime(PROGRESS_INTERVAL_MS * 3);
    expect(sent).toHaveLength(1);
    call.work.progress?.(50);
    jest.advanceTimersByTime(PROGRESS_INTERVAL_MS);
    expect(sent).toHaveLength(1);
    call.work.progress?.(200, 1000);
    jest.advanceTimersByTime(PROGRESS_INTERVAL_MS);
    expect(sent.map((report) => report.progress)).toEqual([100, 200]);
    call.stop();
    call.work.progress?.(300, 1000);
    jest.advanceTimersByTime(PROGRESS_INTERVAL_MS * 4);
    expect(sent.map((report) => report.progress)).toEqual([100, 200]);
  });

  it('passes the abort signal through and sends nothing once it aborted', () => {
    const { controller, sent, facts: requestFacts } = facts(7);
    const call = startCallWork(requestFacts);
    expect(call.work.signal?.aborted).toBe(false);
    call.work.progress?.(1);
    controller.abort();
    expect(call.work.signal?.aborted).toBe(true);
    jest.advanceTimersByTime(PROGRESS_INTERVAL_MS * 2);
    expect(sent).toEqual([]);
    call.stop();
  });

  it('without a progressToken: no progress sink and no timer', () => {
    const { controller, sent, facts: requestFacts } = facts();
    const call = startCallWork(requestFacts);
    expect(call.work.progress).toBeUndefined();
    expect(jest.getTimerCount()).toBe(0);
    controller.abort();
    expect(call.work.signal?.aborted).toBe(true);
    call.stop();
    expect(sent).toEqual([]);
  });
});
