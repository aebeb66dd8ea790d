import type { EntryKind, EntryStat } from '../ports/file-system.port.js';

const KINDS: readonly EntryKind[] = ['file', 'directory', 'symlink', 'other'];
/** Set in a row's kind byte when the row holds the scan's stat (an entry the build's rules passed over holds none). */
const STATED = 0x10;
/** Owners (permissions, uid, gid) one snapshot may tell apart: a row keeps a 16-bit index into them. */
const MAX_OWNERS = 0x10000;

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
 * entries is the case). A row holds the entry's kind and the scan's stat (size, mtimes, inode, and an
 * index into the distinct permissions/uid/gid seen), and two verdict slots the searches fill in:
 * the index's (a file id, valid while the index's `changes` is what `indexEpoch` says) and the ignore
 * rules' (valid while `ignoreKey` is the call's). Restamping a row clears both. Rows are never reused:
 * a removed entry's row is left behind until the snapshot is built again.
 */
export class SnapshotRows {
  private sizes = new Float64Array(1024);
  private modified = new Float64Array(1024);
  /** NaN: no creation time. */
  private created = new Float64Array(1024);
  private inodes = new Float64Array(1024);
  private kinds = new Uint8Array(1024);
  private ownerOf = new Uint16Array(1024);
  private readonly owners: { permissions: number; uid: number; gid: number }[] = [];
  private readonly ownerIndex = new Map<string, number>();
  /** Per row: INDEX_* or the file's id in the index `indexEpoch` names. */
  index = new Int32Array(1024);
  /** Per row: IGNORE_*, under the rules `ignoreKey` names. */
  ignore = new Uint8Array(1024);
  indexEpoch?: { readonly index: object; readonly changes: number };
  ignoreKey?: readonly unknown[];
  length = 0;

  /** A new row; false when the snapshot cannot hold it (too many distinct owners). */
  add(kind: EntryKind, stat?: EntryStat): number | undefined {
    if (this.length === this.sizes.length) this.resize(Math.ceil(this.length * 1.5));
    const row = this.length;
    this.length += 1;
    return this.set(row, kind, stat) ? row : undefined;
  }

  /** Restamps a row (its verdicts are dropped); false when the owner table is full. */
  set(row: number, kind: EntryKind, stat?: EntryStat): boolean {
    this.kinds[row] = KINDS.indexOf(kind) | (stat === undefined ? 0 : STATED);
    this.index[row] = INDEX_UNKNOWN;
    this.ignore[row] = IGNORE_UNKNOWN;
    if (stat === undefined) return true;
    const owner = this.ownerFor(stat);
    if (owner === undefined) return false;
    this.ownerOf[row] = owner;
    this.sizes[row] = stat.size;
    this.modified[row] = stat.modifiedAt.getTime();
    this.created[row] = stat.createdAt === undefined ? Number.NaN : stat.createdAt.getTime();
    this.inodes[row] = stat.inode;
    return true;
  }

  kind(row: number): EntryKind {
    return KINDS[this.kinds[row]! & 0x0f]!;
  }

  isFile(row: number): boolean {
    return this.kinds[row] === STATED;
  }

  hasStat(row: number): boolean {
    return (this.kinds[row]! & STATED) !== 0;
  }

  size(row: number): number {
    return this.sizes[row]!;
  }

  modifiedMs(row: number): number {
    return this.modified[row]!;
  }

  inode(row: number): number {
    return this.inodes[row]!;
  }

  /** The scan's stat of a row that holds one, as a new object (a caller may keep it). */
  stat(row: number, name: string): EntryStat {
    const owner = this.owners[this.ownerOf[row]!]!;
    const created = this.created[row]!;
    const stat: { -readonly [K in keyof EntryStat]: EntryStat[K] } = {
      name,
      kind: this.kind(row),
      size: this.sizes[row]!,
      modifiedAt: new Date(this.modified[row]!),
      permissions: owner.permissions,
      uid: owner.uid,
      gid: owner.gid,
      inode: this.inodes[row]!,
    };
    if (!Number.isNaN(created)) stat.createdAt = new Date(created);
    return stat;
  }

  /** Drops the slack the growth left (after a build). */
  trim(): void {
    this.resize(Math.max(this.length, 16));
  }

  /** The index verdicts, cleared unless they were taken under this index at these `changes`. */
  indexVerdicts(index: object, changes: number): Int32Array {
    if (this.indexEpoch?.index !== index || this.indexEpoch.changes !== changes) {
      this.index.fill(INDEX_UNKNOWN);
      this.indexEpoch = { index, changes };
    }
    return this.index;
  }

  /** The ignore verdicts, cleared unless they were taken under rules with this key (compared item by item). */
  ignoreVerdicts(key: readonly unknown[]): Uint8Array {
    const same = this.ignoreKey !== undefined && this.ignoreKey.length === key.length && this.ignoreKey.every((item, k) => item === key[k]);
    if (!same) {
      this.ignore.fill(IGNORE_UNKNOWN);
      this.ignoreKey = key;
    }
    return this.ignore;
  }

  private ownerFor(stat: EntryStat): number | undefined {
    const key = `${stat.permissions}:${stat.uid}:${stat.gid}`;
    let owner = this.ownerIndex.get(key);
    if (owner === undefined) {
      if (this.owners.length >= MAX_OWNERS) return undefined;
      owner = this.owners.length;
      this.owners.push({ permissions: stat.permissions, uid: stat.uid, gid: stat.gid });
      this.ownerIndex.set(key, owner);
    }
    return owner;
  }

  private resize(length: number): void {
    const sized = <T extends Float64Array | Uint8Array | Uint16Array | Int32Array>(array: T): T => {
      const next = new (array.constructor as new (length: number) => T)(length);
      next.set(array.subarray(0, Math.min(this.length, length)));
      return next;
    };
    this.sizes = sized(this.sizes);
    this.modified = sized(this.modified);
    this.created = sized(this.created);
    this.inodes = sized(this.inodes);
    this.kinds = sized(this.kinds);
    this.ownerOf = sized(this.ownerOf);
    this.index = sized(this.index);
    this.ignore = sized(this.ignore);
  }
}
