import { DomainError, errors } from '../errors.js';
import type { ChangeJournal } from '../ports/change-journal.port.js';

/**
 * Sortable change ids: the time in milliseconds (base 36, fixed width), a per-process sequence and
 * a random tail, so string order is time order and two replicas never mint the same id.
 */
export class ChangeIds {
  private last = 0;
  private sequence = 0;
  private readonly tail: string;

  constructor(random: () => number = Math.random) {
    this.tail = Math.floor(random() * 36 ** 4)
      .toString(36)
      .padStart(4, '0');
  }

  /** Ids minted from now on sort after `id` (one a previous process made, read back at start-up). */
  observe(id: string): void {
    const ms = parseInt(id.slice(0, 9), 36);
    const sequence = parseInt(id.slice(9, 13), 36);
    if (ms > this.last || (ms === this.last && sequence > this.sequence)) {
      this.last = ms;
      this.sequence = sequence;
    }
  }

  next(now: Date): string {
    const ms = Math.max(now.getTime(), this.last);
    this.sequence = ms === this.last ? this.sequence + 1 : 0;
    this.last = ms;
    return `${ms.toString(36).padStart(9, '0')}${this.sequence.toString(36).padStart(4, '0')}${this.tail}`;
  }
}

/** A well-formed change id (it is also a file name in the disk journal, so nothing else gets in). */
export const CHANGE_ID = /^[0-9a-z]{17}$/;

/** since_id's one id that names no change: every change of the caller's, from the start of the journal. */
export const THE_START = '0'.repeat(17);

/** A selector's id (since_id, before_id, an entry of ids): malformed is the caller's mistake, never "everything". */
export function assertChangeId(field: string, id: string): void {
  if (!CHANGE_ID.test(id)) {
    throw errors.invalidArgument(`${field}: "${id.slice(0, 40)}" is not a change id (17 characters, 0-9 and a-z, as list_changes shows them)`);
  }
}

/**
 * A since_id or before_id must name a change the caller may see: without it, "after an id nobody
 * minted" silently selects too much. Security: another principal's id answers as if it did not
 * exist, so ids cannot be probed.
 */
export async function assertKnownChange(journal: ChangeJournal, principal: string | undefined, field: 'since_id' | 'before_id', id: string): Promise<void> {
  assertChangeId(field, id);
  if (field === 'since_id' && id === THE_START) return;
  const record = await journal.get(id);
  if (record === null || (principal !== undefined && record.principal !== principal)) {
    throw new DomainError('NOT_FOUND', `${field}: no change ${id} of yours in the journal (wrong id, another principal's, or aged out); list_changes shows the ids${field === 'since_id' ? `, and since_id ${THE_START} means from the start` : ''}`);
  }
}
