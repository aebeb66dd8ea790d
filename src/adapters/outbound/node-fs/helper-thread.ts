import { Worker, type WorkerOptions } from 'node:worker_threads';

/**
 * A helper thread started when first needed and stopped after `idleMs` without use; the next use
 * starts another. Its code is a plain script (worker_threads `eval`), so that it runs the same from
 * the bundle and from the TypeScript sources under test. It must not keep the process alive, nor take
 * it down: a helper that fails retires this for good (its owner then does the work itself), and
 * `stopped` lets the owner drop whatever it had asked of a helper that ended.
 */
export class OnDemandHelper {
  private current?: Worker;
  /** Settles once the current helper runs (or ended before it could). */
  private online?: Promise<void>;
  private retired = false;
  private idleTimer?: NodeJS.Timeout;

  constructor(
    private readonly source: string,
    private readonly idleMs: number,
    private readonly stopped: () => void = () => undefined,
  ) {}

  /** The running helper, if one runs. */
  get worker(): Worker | undefined {
    return this.current;
  }

  get isRetired(): boolean {
    return this.retired;
  }

  /** Starts a helper with `options` (built only when one is started) unless one runs; false once retired. */
  start(options: () => WorkerOptions = () => ({})): boolean {
    if (this.retired) return false;
    if (this.current) return true;
    let worker: Worker;
    try {
      worker = new Worker(this.source, { ...options(), eval: true });
    } catch {
      this.retired = true;
      return false;
    }
    worker.unref();
    worker.once('error', () => {
      this.retired = true;
      void this.stop();
    });
    worker.once('exit', () => {
      if (this.current === worker) void this.stop();
    });
    this.online = new Promise<void>((resolve) => {
      worker.once('online', () => resolve());
      worker.once('exit', () => resolve());
    });
    this.current = worker;
    this.idleTimer = setTimeout(() => void this.stop(), this.idleMs).unref();
    return true;
  }

  /** The helper was used: its idle time starts again. */
  touch(): void {
    this.idleTimer?.refresh();
  }

  /** Resolves once the helper started by `start` runs. */
  async ready(options?: () => WorkerOptions): Promise<void> {
    if (this.start(options)) await this.online;
  }

  /** Stops the helper for good. */
  async retire(): Promise<void> {
    this.retired = true;
    await this.stop();
  }

  private async stop(): Promise<void> {
    const worker = this.current;
    clearTimeout(this.idleTimer);
    this.current = undefined;
    this.idleTimer = undefined;
    this.stopped();
    await worker?.terminate();
  }
}
