import type { EntryKind, EntryStat, FileVersion } from './file-entry.js';

/** What a tree scan (FileSystemPort.scanTree) is asked to find. */
export interface TreeScanOptions {
  /** Deepest level looked at (1 = entries directly in the start); directories at this level are not entered. */
  readonly maxDepth?: number;
  /**
   * Whether the caller wants an entry, judged on its '/'-separated path relative to the start and
   * the kind its directory listing gives (not followed). Only wanted entries are stat'ed and reported.
   * Asked once per entry, in no promised order (an adapter may judge a directory's entries before
   * it reports those of a subdirectory listed earlier); the reports come in walk order.
   * It must be a pure judgement of its arguments, with no I/O and no await: an adapter may call it
   * while process-wide state is lent to the scan (the Node adapter's working directory is then a
   * directory inside the root, so a relative lookup made here would land there). A scan may also pass
   * the entry's own `name` (the last segment of `relativePath`), when it has it at hand.
   */
  readonly select: (relativePath: string, kind: EntryKind, name?: string) => boolean;
  /**
   * A hint: `select` holds only for entries whose name ends with this (a string without '/'). A scan
   * may leave an entry that is not a directory and whose name does not end so unasked, as if `select`
   * had refused it (a directory is still entered, and `prune` still judges whatever it would).
   */
  readonly selectNameEnding?: string;
  /**
   * Also read each selected regular file of at most `maxBytes` whole, as the scan reports it (so a
   * search need not open every file again). An adapter may leave `contents` out of any entry (the
   * caller then opens the file itself); it bounds what one batch holds.
   */
  readonly readContents?: { readonly maxBytes: number };
  /**
   * Entries to pass over entirely (issue 19's ignore rules): not selected, not stat'ed, and a directory
   * not entered. Asked before `select` about an entry, with the same arguments and under the same rules
   * (pure, no I/O, no await; in no promised order, but only after `directoryFiles.found` for its directory).
   */
  readonly prune?: (relativePath: string, kind: EntryKind) => boolean;
  /** Rule files read in every directory the scan enters, before any of its entries is judged (see DirectoryFiles). */
  readonly directoryFiles?: DirectoryFiles;
  /**
   * Also report entries named like the adapters' own work files (`.mcp-fs-<16 hex>.tmp|lock`), which a
   * scan passes over otherwise: a removed folder's before-image must hold everything an undo is to
   * bring back, a user's folder or file that happens to bear such a name included.
   */
  readonly includeWorkNames?: boolean;
}

/**
 * Files a scan reads in each directory it enters (the start included), for rules that live in the tree
 * (.gitignore). Only an entry listed under one of `names` as a regular file of at most `maxBytes` is read,
 * from the directory being scanned and never through a link; a larger or unreadable one is left out.
 */
export interface DirectoryFiles {
  readonly names: readonly string[];
  readonly maxBytes: number;
  /** Called once per directory entered ('' for the start), with the files found (maybe none). Pure, as `select`. */
  readonly found: (directoryRelativePath: string, files: readonly DirectoryFile[]) => void;
}

export interface DirectoryFile {
  readonly name: string;
  readonly contents: Uint8Array;
  /** The version read (as ReadableFile.version), so what is made of it can be kept while the file is unchanged. */
  readonly version?: FileVersion;
}

/** An entry a scan selected. */
export interface ScannedEntry {
  /** '/'-separated, relative to where the scan started. */
  readonly relativePath: string;
  /** The entry itself, not followed; a link's target is not described (`link` is unset). */
  readonly stat: EntryStat;
  /** With TreeScanOptions.readContents: the file's bytes, read from the entry itself (never through a link). */
  readonly contents?: Uint8Array;
  /** Its path from the root ('/'-separated), when the scan has it at hand: the same string each time, so a lookup by it is cheap. */
  readonly rootPath?: string;
}

/** The part of a scan done in one go; the caller may stop between two batches (cancellation, limits). */
export interface TreeScanBatch {
  /** Entries looked at in this batch, selected or not (for progress). */
  readonly scanned: number;
  readonly selected: readonly ScannedEntry[];
}
