import { ChangeIds } from '../../../domain/changes/change-id.js';
import { imageBytes, newestFirst } from '../../../domain/changes/change-query.js';
import type { BeforeImage, ChangeDraft, ChangeJournal, ChangeQuery, ChangeRecord, EntryState, UndoInFlight } from '../../../domain/ports/change-journal.port.js';
import type { Clock } from '../../../domain/ports/clock.port.js';

interface Held {
  record: ChangeRecord;
  committed: boolean;
  image: BeforeImage | null;
}

interface Claim {
  readonly undoId: string;
  readonly force: boolean;
  /** The journal object (a "server") that holds it. */
  owner: object;
}

interface State {
  readonly held: Map<string, Held>;
  readonly claims: Map<string, Claim>;
  readonly ids: ChangeIds;
}

/**
 * The journal in process memory: for domain tests, and the contract the disk store is held to.
 * `restarted()` is the same journal as a server started after this one was killed would see it.
 */
export class InMemoryChangeJournal implements ChangeJournal {
  private readonly held: Map<string, Held>;
  private readonly claims: Map<string, Claim>;
  private readonly ids: ChangeIds;

  constructor(
    private readonly clock: Clock,
    state: State = { held: new Map(), claims: new Map(), ids: new ChangeIds() },
  ) {
    ({ held: this.held, claims: this.claims, ids: this.ids } = state);
  }

  /** A new server over this journal's state; this one counts as gone (its claims are in flight). */
  restarted(): InMemoryChangeJournal {
    return new InMemoryChangeJournal(this.clock, { held: this.held, claims: this.claims, ids: this.ids });
  }

  async begin(draft: ChangeDraft, image: BeforeImage | null): Promise<string> {
    const now = this.clock.now();
    const id = this.ids.next(now);
    this.held.set(id, { record: { ...draft, id, time: now.toISOString() }, committed: false, image: copyImage(image) });
    return id;
  }

  async commit(id: string, after?: EntryState | null): Promise<void> {
    const held = this.held.get(id);
    if (!held) return;
    held.committed = true;
    if (after !== undefined) held.record = { ...held.record, after };
  }

  async abort(id: string): Promise<void> {
    this.held.delete(id);
    this.claims.delete(id);
  }

  async pending(): Promise<ChangeRecord[]> {
    return [...this.held.values()].filter((held) => !held.committed).map((held) => held.record);
  }

  async list(query: ChangeQuery): Promise<ChangeRecord[]> {
    return newestFirst(this.committed(), query);
  }

  async get(id: string): Promise<ChangeRecord | null> {
    const held = this.held.get(id);
    return held?.committed ? held.record : null;
  }

  async image(id: string): Promise<BeforeImage | null> {
    return copyImage(this.held.get(id)?.image ?? null);
  }

  async claimUndo(id: string, undoId: string, force = false): Promise<boolean> {
    const held = this.held.get(id);
    if (!held?.committed || held.record.undoneBy !== undefined || this.claims.has(id)) return false;
    this.claims.set(id, { undoId, force, owner: this });
    return true;
  }

  async finishUndo(id: string): Promise<void> {
    const held = this.held.get(id);
    const claim = this.claims.get(id);
    if (held && claim) held.record = { ...held.record, undoneBy: claim.undoId };
    this.claims.delete(id);
  }

  async releaseUndo(id: string): Promise<void> {
    this.claims.delete(id);
  }

  async undosInFlight(): Promise<UndoInFlight[]> {
    return [...this.claims].filter(([, claim]) => claim.owner !== this).map(([id, { undoId, force }]) => ({ id, undoId, force }));
  }

  async adoptUndo(id: string): Promise<boolean> {
    const claim = this.claims.get(id);
    if (claim === undefined || claim.owner === this) return false;
    claim.owner = this;
    return true;
  }

  async dropImage(id: string, reason: string): Promise<void> {
    const held = this.held.get(id);
    if (!held) return;
    held.image = null;
    held.record = { ...held.record, undoable: false, reason };
  }

  async prune(before: Date): Promise<number> {
    let removed = 0;
    for (const [id, held] of this.held) {
      if (held.committed && Date.parse(held.record.time) < before.getTime()) {
        await this.abort(id);
        removed += 1;
      }
    }
    return removed;
  }

  async usage(): Promise<{ bytes: number; records: number }> {
    let bytes = 0;
    for (const held of this.held.values()) bytes += imageBytes(held.image?.entries ?? []);
    return { bytes, records: this.held.size };
  }

  async oldestWithImage(limit: number): Promise<string[]> {
    return [...this.committed()]
      // As the disk store: an empty image frees nothing, so evicting it would only lose an undo.
      .filter((record) => imageBytes(this.held.get(record.id)?.image?.entries ?? []) > 0)
      .map((record) => record.id)
      .sort()
      .slice(0, limit);
  }

  async oldest(limit: number): Promise<string[]> {
    return [...this.committed()]
      .map((record) => record.id)
      .sort()
      .slice(0, limit);
  }

  async forget(id: string): Promise<void> {
    if (this.held.get(id)?.committed) this.held.delete(id);
  }

  private *committed(): Iterable<ChangeRecord> {
    for (const held of this.held.values()) if (held.committed) yield held.record;
  }
}

/** Callers get their own bytes: a later change to a buffer they hold must not change the journal. */
function copyImage(image: BeforeImage | null): BeforeImage | null {
  if (image === null) return null;
  return { entries: image.entries.map((entry) => (entry.content ? { ...entry, content: Uint8Array.from(entry.content) } : { ...entry })) };
}
