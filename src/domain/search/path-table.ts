import { U32Blocks } from './u32-blocks.js';

/**
 * The index's paths by id without a JS string per path: a folder table (a Map of folder strings: a
 * tree has far fewer folders than files), and per file its folder's number and its name's UTF-8 bytes in
 * one pool. Lookups go through an open-addressing hash table of ids (linear probing, tombstones for
 * removed ids) hashed over (folder, name bytes). At a million files: about 18 bytes a file, where a
 * Map of path strings and an array of them took about 100.
 */
const EMPTY = -1;
const REMOVED = -2;
const DEAD = 0xffffffff;
const UTF8 = new TextEncoder();
const DECODER = new TextDecoder();
/**
 * The hash table is filled up to LOAD, then made GROWTH times its live paths. A power of two at half
 * full took 8 MiB at a million files, 2 to 3 more than this; linear probing at 0.8 still finds an id in
 * about three probes.
 */
const LOAD = 0.8;
const GROWTH = 1.6;
/** The name pool's pages: a name never crosses one (a file name is at most a few hundred bytes). */
const PAGE_BYTES = 1 << 20;

export class PathTable {
  private readonly folderIds = new Map<string, number>();
  private readonly folderNames: string[] = [];
  private readonly folderOf = new U32Blocks(true);
  /**
   * Per id, where the previous name ended in the pool (offsets over its pages); at id + 1, where this
   * one ends. A name that would cross a page starts the next page instead (see nameStart).
   */
  private readonly nameStarts = new U32Blocks();
  /** The name pool: pages of PAGE_BYTES (the first grows up to that), never copied once full. */
  private readonly pages: Uint8Array[] = [new Uint8Array(1 << 14)];
  private slots = new Int32Array(16).fill(EMPTY);
  private removed = 0;
  private scratch = new Uint8Array(256);
  private lastFolder: string | undefined;
  private lastFolderId = 0;
  /** Ids given, live or not: the next path added gets this id. */
  length = 0;
  /** Live paths. */
  size = 0;

  /** Bytes taken by the per-file arrays, the name pool and the hash table (the folder table aside). */
  get bytes(): number {
    return this.nameStarts.get(this.length) + this.length * 8 + this.slots.length * 4;
  }

  /** What bytes counts at most once the path is added: its name, its fields, the hash table's growth. */
  costOfAdd(path: string): number {
    const growth = this.full(1) ? capacityFor(this.size + 1) * 4 : 0;
    return path.length * 3 + 8 + growth;
  }

  /** The path's id, or undefined when it is not in the table. */
  idOf(path: string): number | undefined {
    const slash = path.lastIndexOf('/');
    const folder = this.folderOfPath(path, slash);
    if (folder === undefined) return undefined;
    const length = this.encodeName(path, slash + 1);
    for (let at = this.hash(folder, this.scratch, 0, length) % this.slots.length; ; at = this.nextSlot(at)) {
      const id = this.slots[at]!;
      if (id === EMPTY) return undefined;
      if (id >= 0 && this.folderOf.get(id) === folder && this.nameIs(id, length)) return id;
    }
  }

  /** The folder's number; the last one asked is kept (a walk asks folder by folder) to spare a slice and a Map lookup. */
  private folderOfPath(path: string, slash: number): number | undefined {
    const last = this.lastFolder;
    if (last !== undefined && (slash < 0 ? last === '' : slash === last.length && path.startsWith(last))) return this.lastFolderId;
    const name = slash < 0 ? '' : path.slice(0, slash);
    const folder = this.folderIds.get(name);
    if (folder !== undefined) {
      this.lastFolder = name;
      this.lastFolderId = folder;
    }
    return folder;
  }

  /** Adds a path not in the table (remove it first), as the next id. */
  add(path: string): number {
    const slash = path.lastIndexOf('/');
    const folderName = slash < 0 ? '' : path.slice(0, slash);
    let folder = this.folderIds.get(folderName);
    if (folder === undefined) {
      folder = this.folderNames.length;
      this.folderIds.set(folderName, folder);
      this.folderNames.push(folderName);
    }
    const length = this.encodeName(path, slash + 1);
    const id = this.length;
    const start = this.placeName(this.nameStarts.get(id), length);
    this.pages[Math.floor(start / PAGE_BYTES)]!.set(this.scratch.subarray(0, length), start % PAGE_BYTES);
    this.nameStarts.set(id + 1, start + length);
    this.folderOf.set(id, folder);
    this.length += 1;
    this.size += 1;
    if (this.full(0)) this.rehash();
    else this.place(id);
    return id;
  }

  /** Forgets a live id (its bytes stay in the pool until the table is rebuilt). */
  remove(id: number): void {
    for (let at = this.hashOf(id) % this.slots.length; ; at = this.nextSlot(at)) {
      if (this.slots[at] === EMPTY) return;
      if (this.slots[at] !== id) continue;
      this.slots[at] = REMOVED;
      this.folderOf.set(id, DEAD);
      this.size -= 1;
      this.removed += 1;
      return;
    }
  }

  /** True for an id given and not removed. */
  isLive(id: number): boolean {
    return id < this.length && this.folderOf.get(id) !== DEAD;
  }

  /** The path of a live id; undefined for a removed one. */
  pathOf(id: number): string | undefined {
    if (id >= this.length) return undefined;
    const folder = this.folderOf.get(id);
    if (folder === DEAD) return undefined;
    const bytes = this.nameBytes(id);
    const name = bytes.length <= 1024 && bytes.every((byte) => byte < 0x80) ? String.fromCharCode(...bytes) : DECODER.decode(bytes);
    const prefix = this.folderNames[folder]!;
    return prefix === '' ? name : `${prefix}/${name}`;
  }

  /**
   * The path of a live id as UTF-8 bytes (a view of `buffer`, or of a larger one when it is too small;
   * undefined for a removed id), with no string made: an encode asks it of every file.
   */
  pathBytesOf(id: number, buffer: Uint8Array): Uint8Array | undefined {
    if (id >= this.length) return undefined;
    const folder = this.folderOf.get(id);
    if (folder === DEAD) return undefined;
    const name = this.nameBytes(id);
    const prefix = this.folderNames[folder]!;
    let out = buffer;
    if (out.length < prefix.length * 3 + 1 + name.length) out = new Uint8Array(prefix.length * 3 + 1 + name.length);
    let length = prefix === '' ? 0 : UTF8.encodeInto(prefix, out).written;
    if (prefix !== '') out[length++] = 0x2f;
    out.set(name, length);
    return out.subarray(0, length + name.length);
  }

  /** The name's UTF-8 bytes into scratch; their count. */
  private encodeName(path: string, from: number): number {
    const length = path.length - from;
    if (length * 3 > this.scratch.length) this.scratch = new Uint8Array(length * 3);
    const { scratch } = this;
    for (let i = 0; i < length; i += 1) {
      const unit = path.charCodeAt(from + i);
      if (unit >= 0x80) return UTF8.encodeInto(path.slice(from), scratch).written;
      scratch[i] = unit;
    }
    return length;
  }

  private nameIs(id: number, length: number): boolean {
    const bytes = this.nameBytes(id);
    if (bytes.length !== length) return false;
    for (let i = 0; i < length; i += 1) if (bytes[i] !== this.scratch[i]) return false;
    return true;
  }

  /** FNV-1a over the folder's number and the name's bytes. */
  private hash(folder: number, bytes: Uint8Array, start: number, length: number): number {
    let hash = Math.imul(0x811c9dc5 ^ folder, 0x01000193);
    for (let i = start; i < start + length; i += 1) hash = Math.imul(hash ^ bytes[i]!, 0x01000193);
    return (hash ^ (hash >>> 15)) >>> 0;
  }

  private place(id: number): void {
    let at = this.hashOf(id) % this.slots.length;
    while (this.slots[at]! >= 0) at = this.nextSlot(at);
    if (this.slots[at] === REMOVED) this.removed -= 1;
    this.slots[at] = id;
  }

  /** True when `more` paths (live ones and tombstones) would fill the table past LOAD. */
  private full(more: number): boolean {
    return this.size + this.removed + more > this.slots.length * LOAD;
  }

  private nextSlot(at: number): number {
    return at + 1 === this.slots.length ? 0 : at + 1;
  }

  /** A table GROWTH times the live paths (filled to LOAD before the next): ids placed again, tombstones gone. */
  private rehash(): void {
    this.slots = new Int32Array(capacityFor(this.size)).fill(EMPTY);
    this.removed = 0;
    for (let id = 0; id < this.length; id += 1) if (this.folderOf.get(id) !== DEAD) this.place(id);
  }

  private hashOf(id: number): number {
    const bytes = this.nameBytes(id);
    return this.hash(this.folderOf.get(id), bytes, 0, bytes.length);
  }

  /** The name's bytes in the pool (a view). */
  private nameBytes(id: number): Uint8Array {
    const end = this.nameStarts.get(id + 1);
    const start = nameStart(this.nameStarts.get(id), end);
    return this.pages[Math.floor(start / PAGE_BYTES)]!.subarray(start % PAGE_BYTES, start % PAGE_BYTES + end - start);
  }

  /** Where a name of `length` bytes goes when the pool ends at `end`: there, or the next page's start (a page taken, or the first grown). */
  private placeName(end: number, length: number): number {
    if (length > PAGE_BYTES) throw new RangeError('a file name longer than the path table\'s page');
    const page = Math.floor(end / PAGE_BYTES);
    const start = end % PAGE_BYTES + length > PAGE_BYTES ? (page + 1) * PAGE_BYTES : end;
    const last = Math.floor((start + length - 1) / PAGE_BYTES);
    if (length > 0 && last >= this.pages.length) this.pages.push(new Uint8Array(PAGE_BYTES));
    else if (this.pages.length === 1 && start + length > this.pages[0]!.length) {
      const larger = new Uint8Array(Math.min(PAGE_BYTES, Math.max(this.pages[0]!.length * 2, start + length)));
      larger.set(this.pages[0]!);
      this.pages[0] = larger;
    }
    return start;
  }
}

/** The start of a name that ends at `end` after a pool that ended at `previous`: there, unless it crossed a page and so starts the next. */
export function nameStart(previous: number, end: number): number {
  if (end === previous || Math.floor(previous / PAGE_BYTES) === Math.floor((end - 1) / PAGE_BYTES)) return previous;
  return Math.floor((end - 1) / PAGE_BYTES) * PAGE_BYTES;
}

function capacityFor(paths: number): number {
  return Math.max(16, Math.ceil(paths * GROWTH));
}
