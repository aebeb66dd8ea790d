export type CheckpointOutcome = 'written' | 'later' | 'never';

const IDLE_MS = 1000;
const RETRY_MS = 110;
const CLOSE_TRIES = 3;

/**
 * When the disk journal writes its index's checkpoint (issue 31): once it has been idle a second
 * after a call that changed it, and at close; never while such a call is under way (its index may
 * be ahead of the disk then), and not at all when nothing changed since the last one.
 * `attempt` writes it: 'later' when the directory is not still yet, 'never' when this server
 * cannot vouch for its index.
 */
export class IdleCheckpoints {
  private calls = 0;
  private timer: NodeJS.Timeout | null = null;
  private dirty = false;

  constructor(private readonly attempt: () => Promise<CheckpointOutcome>) {}

  /** A call that changes the journal: busy until it settles, then a checkpoint is due. */
  async track<T>(call: Promise<T>): Promise<T> {
    this.calls += 1;
    try {
      return await call;
    } finally {
      this.calls -= 1;
      this.due();
    }
  }

  busy(): boolean {
    return this.calls > 0;
  }

  /** The index changed: a checkpoint is due once the journal is idle (unref'd: it keeps no process alive). */
  due(): void {
    this.dirty = true;
    if (this.timer !== null) {
      this.timer.refresh();
      return;
    }
    this.timer = setTimeout(() => {
      this.timer = null;
      void this.run()
        .then((outcome) => outcome === 'later' && this.due())
        .catch(() => undefined);
    }, IDLE_MS);
    this.timer.unref();
  }

  /** Close: the checkpoint now, waiting a few times for the directory to be still. */
  async close(): Promise<void> {
    if (this.timer !== null) clearTimeout(this.timer);
    this.timer = null;
    for (let tries = 1; (await this.run()) === 'later' && tries < CLOSE_TRIES; tries += 1) await new Promise((resolve) => setTimeout(resolve, RETRY_MS));
  }

  private async run(): Promise<CheckpointOutcome> {
    if (this.calls > 0) return 'later';
    if (!this.dirty) return 'written';
    // A call that changes the index while it is written makes it dirty again.
    this.dirty = false;
    const outcome = await this.attempt();
    if (outcome !== 'written') this.dirty = true;
    return outcome;
  }
}
