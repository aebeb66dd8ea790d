/** What says a file is still the one indexed: any difference means it must be read again. */
export interface FileStamp {
  readonly size: number;
  readonly modifiedMs: number;
  readonly inode?: number;
}

/** An indexed file as a search sees it. */
export interface IndexedFile {
  readonly stamp: FileStamp;
  /** grep finds nothing in it (binary): a scan does not count it as searched. */
  readonly binary: boolean;
}

/**
 * The indexed files' stamps and flags by id, in typed arrays: 29 bytes a file where an object per file
 * (and per stamp, with its mtime and inode boxed) took over 100. A million small files is the case.
 */
export class FileRecords {
  private sizes = new Float64Array(1024);
  private mtimes = new Float64Array(1024);
  /** NaN: no inode known. */
  private inodes = new Float64Array(1024);
  private binaries = new Uint8Array(1024);
  /** How many posting lists hold each file (what its removal leaves dead). */
  private postings = new Uint32Array(1024);
  length = 0;

  push(file: IndexedFile, postings: number): void {
    if (this.length === this.sizes.length) this.grow();
    const id = this.length;
    this.sizes[id] = file.stamp.size;
    this.mtimes[id] = file.stamp.modifiedMs;
    this.inodes[id] = file.stamp.inode ?? Number.NaN;
    this.binaries[id] = file.binary ? 1 : 0;
    this.postings[id] = postings;
    this.length += 1;
  }

  /** The file of an id below length, as a new object (a caller may keep it). */
  get(id: number): IndexedFile {
    const inode = this.inodes[id]!;
    const stamp = Number.isNaN(inode) ? { size: this.sizes[id]!, modifiedMs: this.mtimes[id]! } : { size: this.sizes[id]!, modifiedMs: this.mtimes[id]!, inode };
    return { stamp, binary: this.binaries[id] === 1 };
  }

  /** The file's size when it is text; 0 for a binary file. */
  textBytesOf(id: number): number {
    return this.binaries[id] === 1 ? 0 : this.sizes[id]!;
  }

  postingsOf(id: number): number {
    return this.postings[id]!;
  }

  countPosting(id: number): void {
    this.postings[id] = this.postings[id]! + 1;
  }

  private grow(): void {
    const larger = <T extends Float64Array | Uint8Array | Uint32Array>(array: T): T => {
      const grown = new (array.constructor as new (length: number) => T)(Math.ceil(array.length * 1.5));
      grown.set(array);
      return grown;
    };
    this.sizes = larger(this.sizes);
    this.mtimes = larger(this.mtimes);
    this.inodes = larger(this.inodes);
    this.binaries = larger(this.binaries);
    this.postings = larger(this.postings);
  }
}
