/**
 * The index's paths by id without a JS string per path: a folder table (a Map of folder strings: a
 * tree has far fewer folders than files), and per file its folder's number and its name's UTF-8 bytes in
 * one pool. Lookups go through an open-addressing hash table of ids (linear probing, tombstones for
 * removed ids) hashed over (folder, name bytes). At a million files: about 20 bytes a file, where a
 * Map of path strings and an array of them took about 100.
 */
const EMPTY = -1;
const REMOVED = -2;
const DEAD = 0xffffffff;
const UTF8 = new TextEncoder();
const DECODER = new TextDecoder();

export class PathTable {
  private readonly folderIds = new Map<string, number>();
  private readonly folderNames: string[] = [];
  private folderOf = new Uint32Array(1024);
  private nameStarts = new Uint32Array(1025);
  private names = new Uint8Array(1 << 14);
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
    return this.nameStarts[this.length]! + this.length * 8 + this.slots.length * 4;
  }

  /** What bytes counts at most once the path is added: its name, its fields, the hash table's growth. */
  costOfAdd(path: string): number {
    const growth = (this.size + this.removed + 1) * 4 > this.slots.length * 3 ? this.slots.length * 4 : 0;
    return path.length * 3 + 8 + growth;
  }

  /** The path's id, or undefined when it is not in the table. */
  idOf(path: string): number | undefined {
    const slash = path.lastIndexOf('/');
    const folder = this.folderOfPath(path, slash);
    if (folder === undefined) return undefined;
    const length = this.encodeName(path, slash + 1);
    const mask = this.slots.length - 1;
    for (let at = this.hash(folder, this.scratch, 0, length) & mask; ; at = (at + 1) & mask) {
      const id = this.slots[at]!;
      if (id === EMPTY) return undefined;
      if (id >= 0 && this.folderOf[id] === folder && this.nameIs(id, length)) return id;
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
    if (id === this.folderOf.length) this.growFiles();
    const start = this.nameStarts[id]!;
    if (start + length > this.names.length) this.names = grown(this.names, Math.max(start + length, this.names.length * 1.5));
    this.names.set(this.scratch.subarray(0, length), start);
    this.nameStarts[id + 1] = start + length;
    this.folderOf[id] = folder;
    this.length += 1;
    this.size += 1;
    if ((this.size + this.removed) * 4 > this.slots.length * 3) this.rehash();
    else this.place(id);
    return id;
  }

  /** Forgets a live id (its bytes stay in the pool until the table is rebuilt). */
  remove(id: number): void {
    const mask = this.slots.length - 1;
    const start = this.nameStarts[id]!;
    for (let at = this.hash(this.folderOf[id]!, this.names, start, this.nameStarts[id + 1]! - start) & mask; ; at = (at + 1) & mask) {
      if (this.slots[at] === EMPTY) return;
      if (this.slots[at] !== id) continue;
      this.slots[at] = REMOVED;
      this.folderOf[id] = DEAD;
      this.size -= 1;
      this.removed += 1;
      return;
    }
  }

  /** True for an id given and not removed. */
  isLive(id: number): boolean {
    return id < this.length && this.folderOf[id] !== DEAD;
  }

  /** The path of a live id; undefined for a removed one. */
  pathOf(id: number): string | undefined {
    const folder = this.folderOf[id]!;
    if (id >= this.length || folder === DEAD) return undefined;
    const start = this.nameStarts[id]!;
    const end = this.nameStarts[id + 1]!;
    const bytes = this.names.subarray(start, end);
    const name = end - start <= 1024 && bytes.every((byte) => byte < 0x80) ? String.fromCharCode(...bytes) : DECODER.decode(bytes);
    const prefix = this.folderNames[folder]!;
    return prefix === '' ? name : `${prefix}/${name}`;
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
    const start = this.nameStarts[id]!;
    if (this.nameStarts[id + 1]! - start !== length) return false;
    for (let i = 0; i < length; i += 1) if (this.names[start + i] !== this.scratch[i]) return false;
    return true;
  }

  /** FNV-1a over the folder's number and the name's bytes. */
  private hash(folder: number, bytes: Uint8Array, start: number, length: number): number {
    let hash = Math.imul(0x811c9dc5 ^ folder, 0x01000193);
    for (let i = start; i < start + length; i += 1) hash = Math.imul(hash ^ bytes[i]!, 0x01000193);
    return (hash ^ (hash >>> 15)) >>> 0;
  }

  private place(id: number): void {
    const mask = this.slots.length - 1;
    const start = this.nameStarts[id]!;
    let at = this.hash(this.folderOf[id]!, this.names, start, this.nameStarts[id + 1]! - start) & mask;
    while (this.slots[at]! >= 0) at = (at + 1) & mask;
    if (this.slots[at] === REMOVED) this.removed -= 1;
    this.slots[at] = id;
  }

  /** A table at most half full after (filled to three quarters before the next): ids placed again, tombstones gone. */
  private rehash(): void {
    let capacity = 16;
    while (capacity < this.size * 2) capacity *= 2;
    this.slots = new Int32Array(capacity).fill(EMPTY);
    this.removed = 0;
    for (let id = 0; id < this.length; id += 1) if (this.folderOf[id] !== DEAD) this.place(id);
  }

  private growFiles(): void {
    const length = Math.ceil(this.folderOf.length * 1.5);
    this.folderOf = grown(this.folderOf, length);
    this.nameStarts = grown(this.nameStarts, length + 1);
  }
}

function grown<T extends Uint8Array | Uint32Array>(array: T, length: number): T {
  const larger = new (array.constructor as new (length: number) => T)(Math.ceil(length));
  larger.set(array);
  return larger;
}
