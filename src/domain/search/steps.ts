/**
 * Long synchronous work written as a generator that yields between small pieces, so the same code can
 * run at once (tests, small inputs) or give way to calls between slices (a save or load of a large
 * search index would otherwise hold the event loop for seconds: 2.6 s for 130k files).
 */
export type Steps<T> = Generator<void, T, void>;

/** How long one slice runs before it gives way, by default. */
export const SLICE_MS = 8;

export function runAtOnce<T>(steps: Steps<T>): T {
  for (;;) {
    const step = steps.next();
    if (step.done) return step.value;
  }
}

/** Runs the steps in slices of about `sliceMs`, awaiting `pause` between two slices. */
export async function runInSlices<T>(steps: Steps<T>, pause: () => Promise<void>, sliceMs = SLICE_MS): Promise<T> {
  let sliceStart = performance.now();
  for (;;) {
    const step = steps.next();
    if (step.done) return step.value;
    if (performance.now() - sliceStart >= sliceMs) {
      await pause();
      sliceStart = performance.now();
    }
  }
}

/** Gives way to every timer and I/O callback due (a plain turn of the event loop). */
export function nextTurn(): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, 0));
}

/** A point where a stepped run may give way; the work counted since is 0 again. */
export function* giveWay(): Steps<number> {
  yield;
  return 0;
}
