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
