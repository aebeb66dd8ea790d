/**
 * The Node adapter does its short syscalls synchronously (cheaper than a thread-pool hop), so a
 * promise it returns is often settled at once. A long walk or search made of such calls then runs
 * as one chain of microtasks, and the event loop gets no turn until it ends: a request arriving
 * meanwhile (a read_file next to a 200 MB grep) waits for the whole search.
 *
 * A slice bounds that: the first call of a synchronous run starts the clock; once the run has
 * held the loop for `sliceMs`, the next call first yields to the event loop (setImmediate), where
 * pending I/O and other requests get their turn. A call that finds the loop fresh costs one
 * clock read and no hop, so a lone request pays nothing.
 */
export class EventLoopSlice {
  private runStartedAt: number | undefined;
  private readonly endRun = () => {
    this.runStartedAt = undefined;
  };

  constructor(
    private readonly sliceMs: number,
    private readonly now: () => number = () => performance.now(),
  ) {}

  /** Resolves at once, or after one turn of the event loop when the current run has used its slice. */
  turn(): Promise<void> | undefined {
    const now = this.now();
    if (this.runStartedAt === undefined) {
      this.runStartedAt = now;
      // Runs when the loop next reaches its check phase, i.e. once the current run has given way.
      setImmediate(this.endRun);
      return undefined;
    }
    if (now - this.runStartedAt < this.sliceMs) return undefined;
    return new Promise((resolve) => setImmediate(resolve));
  }
}
