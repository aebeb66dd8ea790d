import type { ChangeJournal, JournalObserver } from '../ports/change-journal.port.js';
import type { Clock } from '../ports/clock.port.js';

export interface JournalLimits {
  /** Bytes the journal keeps in all: before-images, records, its log (journal.max_bytes). */
  readonly maxBytes: number;
  /** A before-image larger than this is not kept (journal.max_file_bytes). */
  readonly maxFileBytes: number;
  /** Changes older than this are forgotten (journal.retention_hours). */
  readonly retentionMs: number;
}

/** How often at most the retention is applied: pruning reads every record. */
const PRUNE_EVERY_MS = 60_000;
const EVICT_BATCH = 16;
/** Once over max_bytes, what is not before-images (records, mostly of evicted changes) keeps at most this share of it. */
const RECORDS_SHARE = 4;

interface Usage {
  /** Everything the store keeps that max_bytes bounds. */
  readonly stored: number;
  /** Of which, before-images' bytes. */
  readonly images: number;
  readonly records: number;
}

/**
 * The journal's bounds, applied after each committed change. Records older than the retention go
 * entirely. Past max_bytes (everything the store keeps: before-images, records, its log), the
 * store first frees what it can without losing anything (the disk store's checkpointed log); then
 * the oldest before-images go (the records stay, listed as not undoable), and the oldest records go
 * entirely while the rest (records, mostly) holds more than a quarter of max_bytes, or when no
 * image is left: the newest changes stay undoable, and an operator's number holds.
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
    let usage = await this.usage();
    if (usage.stored > this.limits.maxBytes && this.journal.compact !== undefined) {
      await this.journal.compact();
      usage = await this.usage();
    }
    let evicted = 0;
    while (usage.stored > this.limits.maxBytes) {
      const images = this.recordsOverShare(usage) ? [] : await this.journal.oldestWithImage(EVICT_BATCH);
      // No image left, or the records hold more than their share: the oldest records go.
      const forget = images.length === 0;
      const ids = forget ? await this.journal.oldest(EVICT_BATCH) : images;
      if (ids.length === 0) break;
      for (const id of ids) {
        if (forget) await this.journal.forget(id);
        else await this.journal.dropImage(id, `evicted: the journal keeps at most ${this.limits.maxBytes} bytes (journal.max_bytes), oldest first`);
        evicted += 1;
        usage = await this.usage();
        // Within the bound, or the other kind is due: a new batch.
        if (usage.stored <= this.limits.maxBytes || this.recordsOverShare(usage) !== forget) break;
      }
    }
    if (evicted > 0) this.observer?.journalEvicted(evicted);
    this.observer?.journalUsage(usage.stored, usage.records);
  }

  private recordsOverShare(usage: Usage): boolean {
    return usage.stored - usage.images > this.limits.maxBytes / RECORDS_SHARE;
  }

  private async usage(): Promise<Usage> {
    const { bytes, records } = await this.journal.usage();
    return { stored: (await this.journal.storedBytes?.()) ?? bytes, images: bytes, records };
  }
}
