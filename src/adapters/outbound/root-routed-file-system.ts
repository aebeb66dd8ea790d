import { errors, inRoot } from '../../domain/errors.js';
import type {
  CopyBatchEntry,
  CopyBatchOutcome,
  EntryStat,
  FileLock,
  FileVersion,
  FileSystemPort,
  ReadableFile,
  WriteOptions,
  WriteResult,
} from '../../domain/ports/file-system.port.js';
import type { TreeScanBatch, TreeScanOptions } from '../../domain/ports/tree-scan-types.js';
import { displayPath, type RootPath } from '../../domain/roots.js';
import type { WorkContext } from '../../domain/work-context.js';

/**
 * One FileSystemPort over roots kept by different adapters: a root whose host path is a key of
 * `special` (an archive) goes to that adapter, every other root to `usual` (the Node one).
 */
export class RootRoutedFileSystem implements FileSystemPort {
  constructor(
    private readonly usual: FileSystemPort,
    private readonly special: ReadonlyMap<string, FileSystemPort>,
  ) {}

  private of(path: RootPath): FileSystemPort {
    return this.special.get(path.root.hostPath) ?? this.usual;
  }

  /** Security: one adapter never acts on another's root; a move or copy between two kinds is refused at the destination. */
  private both(from: RootPath, to: RootPath): FileSystemPort {
    const adapter = this.of(to);
    if (this.of(from) !== adapter) throw this.mixed(to);
    return adapter;
  }

  private mixed(to: RootPath): Error {
    return errors.invalidArgument(`cannot move or copy between an archive root and another root: ${displayPath(to)}${inRoot(to.root.name)}`);
  }

  stat(path: RootPath, options?: { followSymlinks?: boolean }): Promise<EntryStat | null> {
    return this.of(path).stat(path, options);
  }

  readDirectory(path: RootPath, options?: { describeLinks?: boolean }): Promise<EntryStat[]> {
    return this.of(path).readDirectory(path, options);
  }

  directoryVersion(path: RootPath): Promise<FileVersion | undefined> {
    return this.of(path).directoryVersion(path);
  }

  scanTree(path: RootPath, options: TreeScanOptions): AsyncIterable<TreeScanBatch> {
    return this.of(path).scanTree(path, options);
  }

  openFile(path: RootPath): Promise<ReadableFile> {
    return this.of(path).openFile(path);
  }

  writeFile(path: RootPath, data: Uint8Array, options: WriteOptions): Promise<WriteResult> {
    return this.of(path).writeFile(path, data, options);
  }

  createDirectory(path: RootPath, options?: { readonly permissions?: number }): Promise<{ created: boolean }> {
    return this.of(path).createDirectory(path, options);
  }

  setDirectoryPermissions(path: RootPath, permissions: number): Promise<number> {
    return this.of(path).setDirectoryPermissions(path, permissions);
  }

  removeFile(path: RootPath, options?: { readonly expected?: string }): Promise<void> {
    return this.of(path).removeFile(path, options);
  }

  removeDirectory(path: RootPath, work?: WorkContext): Promise<void> {
    return this.of(path).removeDirectory(path, work);
  }

  async rename(from: RootPath, to: RootPath): Promise<'renamed' | 'cross-device'> {
    return this.both(from, to).rename(from, to);
  }

  async copyFile(from: RootPath, to: RootPath): Promise<{ size: number }> {
    return this.both(from, to).copyFile(from, to);
  }

  async copyBatch(entries: readonly CopyBatchEntry[], options?: { readonly beforeCommit?: () => Promise<void> }): Promise<CopyBatchOutcome> {
    if (entries.length === 0) return this.usual.copyBatch(entries, options);
    const adapter = this.of(entries[0].to);
    for (const entry of entries) {
      const here = entry.kind === 'file' ? this.both(entry.from, entry.to) : this.of(entry.to);
      if (here !== adapter) throw this.mixed(entry.to);
    }
    return adapter.copyBatch(entries, options);
  }

  lockFile(path: RootPath): Promise<FileLock> {
    return this.of(path).lockFile(path);
  }

  /** Ids are the usual adapter's (the host's accounts); an archive's own names show through its stat owners only. */
  ownerNames(uid: number, gid: number): Promise<{ owner: string; group: string }> {
    return this.usual.ownerNames(uid, gid);
  }
}
