import { compareCodePoints } from '../code-point-order.js';
import type { DirectoryFile } from '../ports/tree-scan-types.js';

/**
 * One directory of a walk snapshot: its entries in code point order (as a walk lists them; the
 * adapters' own work files are left out, as a scan does), each a name and a row of the snapshot's
 * SnapshotRows. The names live in one string, each followed by a '/' (never part of a name), so an
 * entry costs its name's bytes and two 32-bit numbers rather than an object and a string.
 */
export class SnapshotDirectory {
  private names = '';
  /** Where each entry's name starts in `names` (16 bits while `names` is shorter than 64 Ki, as nearly always). */
  private starts: Uint16Array | Uint32Array = new Uint16Array(0);
  /**
   * Each entry's row: `firstRow + index` while they run on (a walk adds a directory's entries together,
   * so nearly always), else one per entry here. 4 MB less at a million entries.
   */
  private rowList?: Int32Array;
  private firstRow = 0;
  private count = 0;
  /** Names and rows as the build found them, in any order, until seal(). */
  private pending?: { names: string[]; rows: number[] } = { names: [], rows: [] };

  constructor(
    /** The rule files (DirectoryFiles) a walk read on entering it. */
    public files: readonly DirectoryFile[] = [],
  ) {}

  get size(): number {
    return this.count;
  }

  /** The row of entry `index`. */
  row(index: number): number {
    return this.rowList === undefined ? this.firstRow + index : this.rowList[index]!;
  }

  name(index: number): string {
    const end = index + 1 < this.starts.length ? this.starts[index + 1]! : this.names.length;
    return this.names.slice(this.starts[index]!, end - 1);
  }

  /** Whether entry `index`'s name ends with `suffix`, with no string made (a replay asks it of every entry). */
  nameEndsWith(index: number, suffix: string): boolean {
    const end = (index + 1 < this.starts.length ? this.starts[index + 1]! : this.names.length) - 1;
    return end - this.starts[index]! >= suffix.length && this.names.endsWith(suffix, end);
  }

  /** While building: an entry, in any order (a sealed directory takes it too, until sealed again). */
  add(name: string, row: number): void {
    this.pending ??= { names: this.allNames(), rows: this.allRows() };
    this.pending.names.push(name);
    this.pending.rows.push(row);
  }

  /** Ends the build of this directory: the entries sorted and packed. */
  seal(): void {
    const pending = this.pending;
    if (pending === undefined) return;
    this.pending = undefined;
    const order = pending.names.map((_name, index) => index).sort((a, b) => compareCodePoints(pending.names[a]!, pending.names[b]!));
    this.pack(
      order.map((index) => pending.names[index]!),
      order.map((index) => pending.rows[index]!),
    );
  }

  /** The entry named `name`, or -1. */
  find(name: string): number {
    const at = this.insertionPoint(name);
    return at < this.count && this.name(at) === name ? at : -1;
  }

  /** The index `name` has or would have in code point order. */
  insertionPoint(name: string): number {
    let low = 0;
    let high = this.count;
    while (low < high) {
      const middle = (low + high) >> 1;
      if (compareCodePoints(this.name(middle), name) < 0) low = middle + 1;
      else high = middle;
    }
    return low;
  }

  insert(index: number, name: string, row: number): void {
    const names = this.allNames();
    const rows = this.allRows();
    names.splice(index, 0, name);
    rows.splice(index, 0, row);
    this.pack(names, rows);
  }

  remove(index: number): void {
    const names = this.allNames();
    const rows = this.allRows();
    names.splice(index, 1);
    rows.splice(index, 1);
    this.pack(names, rows);
  }

  private allNames(): string[] {
    return Array.from({ length: this.count }, (_entry, index) => this.name(index));
  }

  private allRows(): number[] {
    return Array.from({ length: this.count }, (_entry, index) => this.row(index));
  }

  private pack(names: readonly string[], rows: readonly number[]): void {
    const length = names.reduce((sum, name) => sum + name.length + 1, 0);
    this.starts = length <= 0xffff ? new Uint16Array(names.length) : new Uint32Array(names.length);
    let offset = 0;
    names.forEach((name, index) => {
      this.starts[index] = offset;
      offset += name.length + 1;
    });
    // A join is one flat string: the paths the build's names were cut from are not kept.
    this.names = names.length === 0 ? '' : [...names, ''].join('/');
    this.count = rows.length;
    this.firstRow = rows[0] ?? 0;
    this.rowList = rows.every((row, index) => row === this.firstRow + index) ? undefined : Int32Array.from(rows);
  }
}

