import type { ChangeJournal, JournalObserver } from '../ports/change-journal.port.js';
import type { Clock } from '../ports/clock.port.js';

export interface JournalLimits {
  /** Before-image bytes kept in all (journal.max_bytes). */
  readonly maxBytes: number;
  /** A before-image larger than this is not kept (journal.max_file_bytes). */
  readonly maxFileBytes: number;
  /** Changes older than this are forgotten (journal.retention_hours). */
  readonly retentionMs: number;
}

/** How often at most the retention is applied: pruning reads every record. */
const PRUNE_EVERY_MS = 60_000;
const EVICT_BATCH = 16;

/**
 * The journal's bounds, applied after each committed change: the oldest before-images go while
 * their total is above max_bytes (the records stay, listed as not undoable), and records older
 * than the retention go entirely.
 */
export class JournalBounds {
  private lastPrune = Number.NEGATIVE_INFINITY;
  private running: Promise<void> = Promise.resolve();

  constructor(
    private readonly journal: ChangeJournal,
    private readonly clock: Clock,
    private readonly limits: JournalLimits,
    private readonly observer?: JournalObserver,
  ) {}

  /** One enforcement at a time: two commits at once must not evict twice for one excess. */
  enforce(): Promise<void> {
    const next = this.running.then(() => this.apply());
    this.running = next.catch(() => undefined);
    return next;
  }

  private async apply(): Promise<void> {
    const now = this.clock.now().getTime();
    if (now - this.lastPrune >= PRUNE_EVERY_MS) {
      this.lastPrune = now;
      await this.journal.prune(new Date(now - this.limits.retentionMs));
    }
    let usage = await this.journal.usage();
    let evicted = 0;
    while (usage.bytes > this.limits.maxBytes) {
      const oldest = await this.journal.oldestWithImage(EVICT_BATCH);
      if (oldest.length === 0) break;
      for (const id of oldest) {
        await this.journal.dropImage(id, `evicted: the journal keeps at most ${this.limits.maxBytes} bytes of before-images (journal.max_bytes), oldest first`);
        evicted += 1;
        usage = await this.journal.usage();
        if (usage.bytes <= this.limits.maxBytes) break;
      }
    }
    if (evicted > 0) this.observer?.journalEvicted(evicted);
    this.observer?.journalUsage(usage.bytes, usage.records);
  }
}
