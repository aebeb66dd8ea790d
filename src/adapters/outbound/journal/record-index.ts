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

/** Committed records not read yet (a checkpoint's body): their totals are counted, their entries come on first need. */
interface Unread {
  readonly count: number;
  /** The largest id among them: a record with a larger id is not among them (a new one). */
  readonly maxId: string;
  /** The earliest time (ms) among them. */
  readonly oldest: number;
  /** Null when they cannot be read (a torn checkpoint): `fallback` then reads the directory. */
  read(): [string, Held][] | null;
  fallback(): void;
}

/**
 * The disk journal's records in memory, with the running totals of their before-images' bytes and
 * of their files' bytes: every change goes through `put`, so the totals are kept as they change,
 * not summed per call. Seeded from a checkpoint, the committed records are read when a call first
 * needs one of them (issue 31): start-up and the bounds need only the totals.
 */
export class RecordIndex {
  private readonly held = new Map<string, Held>();
  private bytes = 0;
  private storedBytes = 0;
  private unread: Unread | null = null;

  /** Starts from a checkpoint: its totals and the records start-up needs now (every pending one among them), the others when needed. */
  seed(totals: { bytes: number; stored: number }, eager: [string, Held][], unread: Unread): void {
    for (const [id, held] of eager) this.held.set(id, held);
    this.bytes = totals.bytes;
    this.storedBytes = totals.stored;
    this.unread = unread;
  }

  /** Whether the records not read yet may hold `id`. */
  private mayHold(id: string): boolean {
    return this.unread !== null && !this.held.has(id) && id <= this.unread.maxId;
  }

  /** Reads the records not read yet (counted in the totals already). */
  private readAll(): void {
    const unread = this.unread;
    if (unread === null) return;
    this.unread = null;
    const entries = unread.read();
    if (entries === null) {
      // The totals counted them: count again what is held, then let the directory say the rest.
      this.bytes = [...this.held.values()].reduce((sum, held) => sum + held.imageBytes, 0);
      this.storedBytes = [...this.held.values()].reduce((sum, held) => sum + held.stored, 0);
      return unread.fallback();
    }
    for (const [id, held] of entries) if (!this.held.has(id)) this.held.set(id, held);
  }

  get(id: string): Held | undefined {
    if (this.mayHold(id)) this.readAll();
    return this.held.get(id);
  }

  has(id: string): boolean {
    if (this.mayHold(id)) this.readAll();
    return this.held.has(id);
  }

  entries(): [string, Held][] {
    this.readAll();
    return [...this.held];
  }

  put(id: string, held: Held | undefined): void {
    if (this.mayHold(id)) this.readAll();
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
    const held = this.get(id);
    if (held === undefined) return;
    // In place: a caller holding this entry across an await must not mutate a replaced copy.
    this.storedBytes += bytes - held.stored;
    held.stored = bytes;
  }

  /** The before-images' bytes and the records' files' bytes, in all. */
  totals(): { bytes: number; stored: number } {
    return { bytes: this.bytes, stored: this.storedBytes };
  }

  /** What the records' files hold in all. */
  stored(): number {
    return this.storedBytes;
  }

  *committed(): Iterable<ChangeRecord> {
    this.readAll();
    for (const held of this.held.values()) if (held.committed) yield held.record;
  }

  /** Pending records (not committed) that `include` accepts. */
  pending(include: (held: Held) => boolean): ChangeRecord[] {
    return [...this.held.values()].filter((held) => !held.committed && include(held)).map((held) => held.record);
  }

  usage(): { bytes: number; records: number } {
    return { bytes: this.bytes, records: this.held.size + (this.unread?.count ?? 0) };
  }

  /** Committed records made before `time` (ms); the records not read yet only if one of them is that old. */
  committedBefore(time: number): string[] {
    if (this.unread !== null && this.unread.oldest < time) this.readAll();
    return [...this.held].filter(([, held]) => held.committed && Date.parse(held.record.time) < time).map(([id]) => id);
  }

  /** The oldest committed records that still hold a before-image. */
  oldestWithImage(limit: number): string[] {
    return this.oldest(limit, (held) => held.imageBytes > 0);
  }

  /** The oldest committed records (that `include` accepts). */
  oldest(limit: number, include: (held: Held) => boolean = () => true): string[] {
    this.readAll();
    return [...this.held.values()]
      .filter((held) => held.committed && include(held))
      .map((held) => held.record.id)
      .sort()
      .slice(0, limit);
  }
}
