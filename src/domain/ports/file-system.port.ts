import type { RootPath } from '../roots.js';
import type { WorkContext } from '../work-context.js';
import type { EntryKind, EntryStat, FileVersion } from './file-entry.js';
import type { TreeScanBatch, TreeScanOptions } from './tree-scan-types.js';

// The entry types every caller of the port uses; the scan's own types are imported from tree-scan-types.ts.
export type { EntryKind, EntryStat, FileVersion, LinkInfo } from './file-entry.js';

/** An open regular file. Reads are positional, so a caller can stream any range. */
export interface ReadableFile {
  /** Metadata of the opened file itself (after following in-root links). */
  readonly stat: EntryStat;
  /**
   * Opaque identity of the version that was opened (on disk: device, inode, size, mtime and ctime).
   * Pass it back as WriteOptions.expected to refuse a write over a file that changed since.
   */
  readonly version?: FileVersion;
  /**
   * Up to `length` bytes from `position` (fewer only at the end of the file). With `into`, an
   * adapter may fill that buffer and return a view of it, so a streaming caller can reuse one
   * buffer; the view is valid until the next read into the same buffer.
   */
  read(position: number, length: number, into?: Uint8Array): Promise<Uint8Array>;
  close(): Promise<void>;
  /**
   * Optional fast path for line windows: the start of line `line` (1-based) or of an earlier
   * line near it, and the number of lines in the file (a last line without a newline counts).
   * An adapter may answer from an index it keeps per file version; without it, callers scan.
   */
  seekLine?(line: number): Promise<LineSeek>;
}

export interface LineSeek {
  /** A line number <= the one asked for (1-based)... */
  readonly line: number;
  /** ...and the byte offset where that line starts. */
  readonly position: number;
  readonly linesTotal: number;
}

/** A held per-file write lock (see FileSystemPort.lockFile). */
export interface FileLock {
  release(): Promise<void>;
}

export type WriteMode =
  /** Atomically replace (temp file + rename in the same directory); keeps an existing file's permissions. */
  | 'replace'
  /** Create only if nothing exists at the path (not even a dangling link); ALREADY_EXISTS otherwise. Atomic. */
  | 'create_exclusive'
  /** Append to the end; creates the file if missing. */
  | 'append';

export interface WriteOptions {
  readonly mode: WriteMode;
  /** Create missing parent directories (0755) inside the root. */
  readonly createParents: boolean;
  /** Permissions for a newly created file; default 0o644. */
  readonly newFilePermissions?: number;
  /**
   * Mode 'replace' only: the permissions the file has after the write, whether it existed or not
   * (default: an existing file keeps its own). An undo puts back content and mode in one write.
   */
  readonly permissions?: number;
  /**
   * Mode 'replace' only: the version the caller read. Right before the rename the adapter checks
   * that the file is still that version and throws CONFLICT otherwise (no lost update).
   */
  readonly expected?: FileVersion;
  /**
   * Awaited once, after the new content is written and synced aside and right before it becomes
   * visible (the rename, the link or the append), and never after. A rejection cancels the write:
   * nothing changes and the rejection is thrown. The change journal makes its record durable
   * meanwhile, so its fsyncs overlap the temp file's instead of adding to them. Mode 'replace'
   * only: it may name the version the target must still be (as `expected` does, when that is
   * unset), because the journal reads the before-image while the temp file is written.
   */
  readonly beforeCommit?: () => Promise<CommitCondition | void>;
}

/** What a beforeCommit hook may ask of the commit it precedes. */
export interface CommitCondition {
  readonly expected?: FileVersion;
}

export interface WriteResult {
  readonly created: boolean;
  /** Size of the file after the write. */
  readonly size: number;
}

/** One entry of a copy batch (FileSystemPort.copyBatch): a file copied to `to`, or a folder made there. */
/** A folder entry's `permissions` is the exact mode a folder it makes gets (default 0755); an existing folder keeps its own. */
export type CopyBatchEntry =
  | { readonly kind: 'file'; readonly from: RootPath; readonly to: RootPath }
  | { readonly kind: 'directory'; readonly to: RootPath; readonly permissions?: number };

export interface CopyBatchOutcome {
  /** One per entry put in place, in order (a prefix of the batch): a file's size, or whether a folder was made (size 0). */
  readonly placed: readonly { readonly size: number; readonly created: boolean }[];
  /** What stopped the batch after `placed`; those entries stay, durable. Absent when every entry was placed. */
  readonly failure?: unknown;
}

/**
 * The file system as the domain needs it. Every method takes an in-root path and
 * guarantees confinement itself: adapters resolve symlinks hop by hop under PathPolicy's
 * rules and act on the very object they checked (no check-then-use race).
 *
 * Errors are DomainErrors: ACCESS_DENIED (a hop leaves the root), NOT_FOUND,
 * NOT_A_DIRECTORY, IS_A_DIRECTORY, NOT_A_FILE, ALREADY_EXISTS, PERMISSION_DENIED, IO_ERROR.
 * Messages name the root and the in-root path, never a host path.
 */
export interface FileSystemPort {
  /** Metadata, or null when nothing exists there. With followSymlinks, an in-root link is followed to its target. */
  stat(path: RootPath, options?: { followSymlinks?: boolean }): Promise<EntryStat | null>;

  /**
   * Entries of a directory (in-root links followed to reach it), unsorted, each not followed, links
   * described. With describeLinks: false a link entry has no `link`: describing one walks its target,
   * which a caller that never looks at it (a tree walk) should not pay for.
   */
  readDirectory(path: RootPath, options?: { describeLinks?: boolean }): Promise<EntryStat[]>;

  /**
   * The version of a directory's list of entries (in-root links followed to reach it, as
   * readDirectory): equal versions mean the same directory with the same names, so a listing read
   * at one may be used again (issue 33: completions). Undefined when the adapter cannot vouch for it:
   * a directory changed so recently that a next change might leave its timestamps as they are.
   * Throws like readDirectory.
   */
  directoryVersion(path: RootPath): Promise<FileVersion | undefined>;

  /**
   * Walks the tree below the directory `path` (in-root links followed to reach it) depth-first,
   * pre-order, names in code point order, and reports the entries `select` wants, in batches that
   * each take a few milliseconds at most, so that the caller can stop between them and other work
   * runs meanwhile. Links inside the tree are never followed (a link is an entry, not a way in); a
   * directory that vanishes or stops being a directory while the scan runs is skipped.
   */
  scanTree(path: RootPath, options: TreeScanOptions): AsyncIterable<TreeScanBatch>;

  /** Open a regular file for reading; in-root links are followed. */
  openFile(path: RootPath): Promise<ReadableFile>;

  /** Write bytes under the given mode. A final in-root link is written through to its target. */
  writeFile(path: RootPath, data: Uint8Array, options: WriteOptions): Promise<WriteResult>;

  /**
   * mkdir -p inside the root. created=false when it already was a directory. NOT_A_DIRECTORY when a
   * file is in the way. Every directory it makes is 0755, the last one `options.permissions` when
   * given; set on the open directory, so the umask does not decide them.
   */
  createDirectory(path: RootPath, options?: { readonly permissions?: number }): Promise<{ created: boolean }>;

  /**
   * Sets the mode bits (0o7777) of the directory at `path`, exactly (no umask); a final link is not
   * followed (NOT_A_DIRECTORY, as for a file). Returns the bits it has after: the kernel may drop
   * some (set-group-ID, for a group the process is not in).
   */
  setDirectoryPermissions(path: RootPath, permissions: number): Promise<number>;

  /**
   * Remove one non-directory entry; a symlink itself is removed, never its target. With `expected`,
   * the entry must still be that version of a file right before it is removed (CONFLICT otherwise):
   * what the journal kept of it is exactly what went.
   */
  removeFile(path: RootPath, options?: { readonly expected?: FileVersion }): Promise<void>;

  /** Remove a directory and everything below it without following any link; stops with CANCELLED between entries once `work.signal` is aborted. */
  removeDirectory(path: RootPath, work?: WorkContext): Promise<void>;

  /**
   * Rename an entry (not followed) to `to`, replacing a non-directory there.
   * 'cross-device' when the two paths are on different file systems and nothing was done.
   */
  rename(from: RootPath, to: RootPath): Promise<'renamed' | 'cross-device'>;

  /** Copy one regular file (source links followed in-root) to `to`, atomically, keeping permissions. */
  copyFile(from: RootPath, to: RootPath): Promise<{ size: number }>;

  /**
   * Copies files (as copyFile does) and makes folders (one level, in-root links followed) as one
   * durable batch, for a tree copy: every file is written aside and synced first, then
   * `beforeCommit` is awaited, then the entries are put in place in order, and each folder that
   * received one is synced once (not once per entry). When it resolves, every placed entry is on
   * disk. Each entry's folder must exist before the batch. A failure before anything is placed
   * (a source that cannot be read, a hook that rejects) rejects, and nothing changed.
   */
  copyBatch(entries: readonly CopyBatchEntry[], options?: { readonly beforeCommit?: () => Promise<void> }): Promise<CopyBatchOutcome>;

  /**
   * Lock one file for a read-modify-write: waits while another edit of the same file (same
   * directory object and name, however the path was spelt) holds it, in this process and, on
   * disk, in any other process that uses this lock. CONFLICT when it cannot be had in time.
   */
  lockFile(path: RootPath): Promise<FileLock>;

  /** Owner and group names for ids; falls back to the numeric id as a string. */
  ownerNames(uid: number, gid: number): Promise<{ owner: string; group: string }>;
}
