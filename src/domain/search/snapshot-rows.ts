import type { EntryKind, EntryStat } from '../ports/file-system.port.js';
import { recentDates } from '../recent-dates.js';
import { copied, StampBlock, Stamps } from './narrow-numbers.js';

const KINDS: readonly EntryKind[] = ['file', 'directory', 'symlink', 'other'];
const DIRECTORY = KINDS.indexOf('directory');
/** Set in a row's kind byte when the row holds the scan's stat (an entry the build's rules passed over holds none). */
const STATED = 0x10;
/** Owners (permissions, uid, gid) one snapshot may tell apart: a row keeps a 16-bit index into them. */
const MAX_OWNERS = 0x10000;

/**
 * Ignore verdicts are kept for this many rule keys (a call's start and rules): a glob from one folder
 * and a grep from another, one after the other, cleared each other's verdicts when one set was kept,
 * and the first grep after a glob judged every entry again (22 ms against 9 on the 200 MB corpus).
 */
const KEPT_RULE_KEYS = 4;

/** Rows per block of stats (as a power of two): 16,384 rows, some 270 KiB. */
const BLOCK_BITS = 14;
const BLOCK_ROWS = 1 << BLOCK_BITS;
const IN_BLOCK = BLOCK_ROWS - 1;

/** What a row's index slot holds besides a file id (>= 0): not looked up yet, not vouched for, binary. */
export const INDEX_UNKNOWN = -2;
export const INDEX_UNVOUCHED = -1;
export const INDEX_BINARY = -3;
/** What a row's ignore slot holds: not judged yet, kept, passed over. */
export const IGNORE_UNKNOWN = 0;
export const IGNORE_KEPT = 1;
export const IGNORE_PRUNED = 2;

/**
 * Issue 31.2: the entries of a walk snapshot as rows of typed arrays (no object per entry: a million
 * entries is the case). A row holds the entry's kind and the scan's stat (size, mtime, inode, and an
 * index into the distinct permissions/uid/gid seen; not the birth time, which no search reads: 8 MB at
 * a million entries), and two verdict slots the searches fill in:
 * the index's (a file id, valid while the index's `changes` is what `indexEpoch` says) and the ignore
 * rules' (one set per rules key, for the last KEPT_RULE_KEYS keys). Restamping a row clears them all. Rows are never reused:
 * a removed entry's row is left behind until the snapshot is built again. The stats live in blocks of
 * BLOCK_ROWS rows, so that growing never copies (nor holds twice) more than one block.
 */
/** The stats of up to BLOCK_ROWS rows; the last block grows to that size as rows come. */
class Block extends StampBlock {
  readonly kinds: Uint8Array;
  /** A byte a row until an owner past the 256th comes to the block (a tree has a few owners). */
  owners: Uint8Array | Uint16Array;

  constructor(capacity: number, from?: Block) {
    super(capacity, from);
    this.kinds = copied(new Uint8Array(capacity), from?.kinds);
    const owners = from?.owners.BYTES_PER_ELEMENT === 2 ? new Uint16Array(capacity) : new Uint8Array(capacity);
    owners.set(from?.owners.subarray(0, Math.min(from.owners.length, capacity)) ?? []);
    this.owners = owners;
  }

  setOwner(at: number, owner: number): void {
    if (owner > 0xff && this.owners.BYTES_PER_ELEMENT === 1) this.owners = Uint16Array.from(this.owners);
    this.owners[at] = owner;
  }
}

export class SnapshotRows {
  private readonly blocks: Block[] = [new Block(1024)];
  private readonly stamps = new Stamps();
  private readonly owners: { permissions: number; uid: number; gid: number }[] = [];
  private readonly ownerIndex = new Map<string, number>();
  /** The owner of the last stat added (most entries of a tree share one): no key is made for it. */
  private lastOwner = -1;
  /** Dates stat() hands out (see recentDates). */
  private readonly dateOf = recentDates();
  /** Per row: INDEX_* or the file's id in the index `indexEpoch` names (made by the first search that keeps one). */
  private index?: Int32Array;
  /** Per row: IGNORE_*, one array per rules key, the last asked for first (made likewise). */
  private readonly ignores: { readonly key: readonly unknown[]; verdicts: Uint8Array }[] = [];
  indexEpoch?: { readonly index: object; readonly changes: number };
  length = 0;

  /** A new row; undefined when the snapshot cannot hold it (too many distinct owners). */
  add(kind: EntryKind, stat?: EntryStat): number | undefined {
    const row = this.length;
    const last = this.blocks.length - 1;
    if (row >> BLOCK_BITS > last) this.blocks.push(new Block(1024));
    else if ((row & IN_BLOCK) >= this.blocks[last]!.capacity) this.blocks[last] = new Block(Math.min(this.blocks[last]!.capacity * 2, BLOCK_ROWS), this.blocks[last]);
    if (this.index !== undefined && row >= this.index.length) this.index = copied(new Int32Array(row * 2), this.index);
    for (const kept of this.ignores) if (row >= kept.verdicts.length) kept.verdicts = copied(new Uint8Array(row * 2), kept.verdicts);
    this.length += 1;
    return this.set(row, kind, stat) ? row : undefined;
  }

  /** Restamps a row (its verdicts are dropped); false when the owner table is full. */
  set(row: number, kind: EntryKind, stat?: EntryStat): boolean {
    const block = this.blocks[row >> BLOCK_BITS]!;
    const at = row & IN_BLOCK;
    block.kinds[at] = KINDS.indexOf(kind) | (stat === undefined ? 0 : STATED);
    if (this.index !== undefined) this.index[row] = INDEX_UNKNOWN;
    for (const kept of this.ignores) kept.verdicts[row] = IGNORE_UNKNOWN;
    if (stat === undefined) return true;
    const owner = this.ownerFor(stat);
    if (owner === undefined) return false;
    block.setOwner(at, owner);
    this.stamps.put(block, at, row, stat.size, stat.modifiedAt.getTime(), stat.inode);
    return true;
  }

  kind(row: number): EntryKind {
    return KINDS[this.blocks[row >> BLOCK_BITS]!.kinds[row & IN_BLOCK]! & 0x0f]!;
  }

  isFile(row: number): boolean {
    return this.blocks[row >> BLOCK_BITS]!.kinds[row & IN_BLOCK] === STATED;
  }

  isDirectory(row: number): boolean {
    return (this.blocks[row >> BLOCK_BITS]!.kinds[row & IN_BLOCK]! & 0x0f) === DIRECTORY;
  }

  hasStat(row: number): boolean {
    return (this.blocks[row >> BLOCK_BITS]!.kinds[row & IN_BLOCK]! & STATED) !== 0;
  }

  size(row: number): number {
    return this.stamps.size(this.blocks[row >> BLOCK_BITS]!, row & IN_BLOCK, row);
  }

  modifiedMs(row: number): number {
    return this.stamps.modifiedMs(this.blocks[row >> BLOCK_BITS]!, row & IN_BLOCK, row);
  }

  inode(row: number): number {
    return this.stamps.inode(this.blocks[row >> BLOCK_BITS]!, row & IN_BLOCK, row);
  }

  /**
   * The scan's stat of a row that holds one, as a new object (a caller may keep it), without a createdAt.
   * Its mtime is a Date shared with the stats made just before at the same instant (recentDates): a replay
   * of 25,000 files made two Dates a file, half of what it allocated.
   */
  stat(row: number, name: string): EntryStat {
    const block = this.blocks[row >> BLOCK_BITS]!;
    const at = row & IN_BLOCK;
    const owner = this.owners[block.owners[at]!]!;
    const kind = this.kind(row);
    const size = this.stamps.size(block, at, row);
    const modifiedAt = this.dateOf(this.stamps.modifiedMs(block, at, row));
    const inode = this.stamps.inode(block, at, row);
    const { permissions, uid, gid } = owner;
    return { name, kind, size, modifiedAt, permissions, uid, gid, inode };
  }

  /** Drops the slack the growth left in the last block (after a build). */
  trim(): void {
    const last = this.blocks.length - 1;
    const used = Math.max(this.length - (last << BLOCK_BITS), 16);
    if (used < this.blocks[last]!.capacity) this.blocks[last] = new Block(used, this.blocks[last]);
  }

  /** The index verdicts, cleared unless they were taken under this index at these `changes`. */
  indexVerdicts(index: object, changes: number): Int32Array {
    if (this.index === undefined || this.indexEpoch?.index !== index || this.indexEpoch.changes !== changes) {
      (this.index ??= new Int32Array(this.length + 1024)).fill(INDEX_UNKNOWN);
      this.indexEpoch = { index, changes };
    }
    return this.index;
  }

  /**
   * The ignore verdicts taken under rules with this key (compared item by item), new and unjudged for a
   * key not among the last KEPT_RULE_KEYS asked for. Each key has its own: a call under other rules that
   * runs between two batches of this one never writes into them.
   */
  ignoreVerdicts(key: readonly unknown[]): Uint8Array {
    const at = this.ignores.findIndex((kept) => kept.key.length === key.length && kept.key.every((item, k) => item === key[k]));
    const kept = at >= 0 ? this.ignores.splice(at, 1)[0]! : { key, verdicts: new Uint8Array(this.length + 1024) };
    this.ignores.unshift(kept);
    if (this.ignores.length > KEPT_RULE_KEYS) this.ignores.pop();
    return kept.verdicts;
  }

  private ownerFor(stat: EntryStat): number | undefined {
    const last = this.owners[this.lastOwner];
    if (last !== undefined && last.permissions === stat.permissions && last.uid === stat.uid && last.gid === stat.gid) return this.lastOwner;
    const key = `${stat.permissions}:${stat.uid}:${stat.gid}`;
    let owner = this.ownerIndex.get(key);
    if (owner === undefined) {
      if (this.owners.length >= MAX_OWNERS) return undefined;
      owner = this.owners.length;
      this.owners.push({ permissions: stat.permissions, uid: stat.uid, gid: stat.gid });
      this.ownerIndex.set(key, owner);
    }
    this.lastOwner = owner;
    return owner;
  }
}
