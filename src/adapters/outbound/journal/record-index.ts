import { readFileSync } from 'node:fs';
import type { ChangeRecord } from '../../../domain/ports/change-journal.port.js';
import type { Owner } from './journal-owners.js';

/** A record as the disk journal stores it (in an image file's header, or in <id>.json). */
export interface Stored {
  readonly state: 'pending' | 'committed';
  record: ChangeRecord;
  /** Who began it: a pending record of a live process (another server on this journal) is its business, not recovery's. */
  readonly owner?: Owner;
}

/** A record file, or null when it is gone (another writer's abort or prune) or torn. */
export function readStored(file: string): Stored | null {
  try {
    return JSON.parse(readFileSync(file, 'utf8')) as Stored;
  } catch {
    return null;
  }
}

/** A record in the index. */
export interface Held {
  record: ChangeRecord;
  committed: boolean;
  imageBytes: number;
  /** What its files in the journal directory hold (image file, record file, claim), or will once its image file is written. */
  stored: number;
  owner?: Owner;
}

/**
 * The disk journal's records in memory, with the running totals of their before-images' bytes and
 * of their files' bytes: every change goes through `put`, so the totals are kept as they change,
 * not summed per call.
 */
export class RecordIndex {
  private readonly held = new Map<string, Held>();
  private bytes = 0;
  private storedBytes = 0;

  get(id: string): Held | undefined {
    return this.held.get(id);
  }

  has(id: string): boolean {
    return this.held.has(id);
  }

  entries(): [string, Held][] {
    return [...this.held];
  }

  put(id: string, held: Held | undefined): void {
    const was = this.held.get(id);
    this.bytes -= was?.imageBytes ?? 0;
    this.storedBytes -= was?.stored ?? 0;
    if (held === undefined) {
      this.held.delete(id);
      return;
    }
    this.held.set(id, held);
    this.bytes += held.imageBytes;
    this.storedBytes += held.stored;
  }

  /** `id`'s files now hold `bytes` (measured after each write or removal of one of them). */
  restate(id: string, bytes: number): void {
    const held = this.held.get(id);
    if (held === undefined) return;
    // In place: a caller holding this entry across an await must not mutate a replaced copy.
    this.storedBytes += bytes - held.stored;
    held.stored = bytes;
  }

  /** What the records' files hold in all. */
  stored(): number {
    return this.storedBytes;
  }

  *committed(): Iterable<ChangeRecord> {
    for (const held of this.held.values()) if (held.committed) yield held.record;
  }

  /** Pending records (not committed) that `include` accepts. */
  pending(include: (held: Held) => boolean): ChangeRecord[] {
    return [...this.held.values()].filter((held) => !held.committed && include(held)).map((held) => held.record);
  }

  usage(): { bytes: number; records: number } {
    return { bytes: this.bytes, records: this.held.size };
  }

  /** The oldest committed records that still hold a before-image. */
  oldestWithImage(limit: number): string[] {
    return this.oldest(limit, (held) => held.imageBytes > 0);
  }

  /** The oldest committed records (that `include` accepts). */
  oldest(limit: number, include: (held: Held) => boolean = () => true): string[] {
    return [...this.held.values()]
      .filter((held) => held.committed && include(held))
      .map((held) => held.record.id)
      .sort()
      .slice(0, limit);
  }
}
