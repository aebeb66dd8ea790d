import type { WorkContext } from '../../../../domain/work-context.js';

/** How often the latest progress is sent: twice as often as the 500 ms a client may expect. */
export const PROGRESS_INTERVAL_MS = 250;

/** The parts of the SDK's RequestHandlerExtra a tool call needs. */
export interface CallRequestFacts {
  readonly signal: AbortSignal;
  readonly progressToken?: string | number;
  sendProgress(params: { progressToken: string | number; progress: number; total?: number; message?: string }): Promise<void>;
}

export interface CallWork {
  readonly work: WorkContext;
  /** Ends the progress timer; called when the call ends, however it ends. */
  stop(): void;
}

/**
 * The WorkContext of one call: its abort signal (the client's notifications/cancelled) and,
 * when the request carries a progressToken, a progress sink. The domain may report on every
 * loop turn; only the latest value goes out, on a timer, and only when it moved forward
 * (notifications/progress must increase). No timer runs for a call without a token.
 */
export function startCallWork(facts: CallRequestFacts): CallWork {
  const token = facts.progressToken;
  if (token === undefined) return { work: { signal: facts.signal }, stop: () => undefined };
  let latest: { done: number; total?: number; message?: string } | undefined;
  let sent = -1;
  const flush = () => {
    if (latest === undefined || latest.done <= sent || facts.signal.aborted) return;
    sent = latest.done;
    const { done, total, message } = latest;
    facts
      .sendProgress({ progressToken: token, progress: done, ...(total !== undefined ? { total } : {}), ...(message ? { message } : {}) })
      // The client may be gone; progress is best effort and never fails the call.
      .catch(() => undefined);
  };
  const timer = setInterval(flush, PROGRESS_INTERVAL_MS);
  timer.unref();
  return {
    work: {
      signal: facts.signal,
      progress(done, total, message) {
        if (latest === undefined || done >= latest.done) latest = { done, total, message };
      },
    },
    stop: () => clearInterval(timer),
  };
}
