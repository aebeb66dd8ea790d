import { DomainError, errors, inRoot } from '../../domain/errors.js';
import type {
  CopyBatchEntry,
  CopyBatchOutcome,
  EntryStat,
  FileLock,
  FileVersion,
  FileSystemPort,
  ReadableFile,
  WriteResult,
} from '../../domain/ports/file-system.port.js';
import type { TreeScanBatch, TreeScanOptions } from '../../domain/ports/tree-scan-types.js';
import { baseName, displayPath, parentPath, type RootPath } from '../../domain/roots.js';
import { isOwnWorkFile } from '../../domain/work-files.js';
import { type ArchiveBytes, openArchiveBytes } from './archive/archive-bytes.js';
import { type ArchiveIndex, indexArchive } from './archive/archive-index.js';
import { readTarHeaders } from './archive/tar-headers.js';
import { walkFailure } from './in-memory/failures.js';
import { scanMemoryTree } from './in-memory/tree-scan.js';
import type { FileNode } from './in-memory/tree.js';

interface OpenArchive {
  readonly bytes: ArchiveBytes;
  readonly index: ArchiveIndex;
}

/**
 * FileSystemPort over one .tar (or .tar.gz) archive mounted as a root whose host path is the
 * archive's real path. Read-only: the headers are indexed once, on first use, into the in-memory
 * adapter's tree (so links are walked by the same PathPolicy rules), and a file's bytes are read
 * from the archive by offset when asked for. Every write answers PERMISSION_DENIED naming the
 * root and the path.
 */
export class ArchiveFileSystem implements FileSystemPort {
  private opened?: Promise<OpenArchive>;

  constructor(private readonly archiveHostPath: string) {}

  private archive(path: RootPath): Promise<OpenArchive> {
    this.opened ??= this.open();
    return this.opened.catch((error: unknown) => {
      // Security: the cause may hold the host path; the client sees the root only.
      throw new DomainError('IO_ERROR', `cannot read the archive${inRoot(path.root.name)}`, { root: path.root.name, cause: String(error) });
    });
  }

  private async open(): Promise<OpenArchive> {
    const bytes = await openArchiveBytes(this.archiveHostPath);
    try {
      return { bytes, index: indexArchive(this.archiveHostPath, await readTarHeaders(bytes), new Date()) };
    } catch (error) {
      await bytes.close();
      throw error;
    }
  }

  /** Members the index left out (absolute or climbing names, entries below a link...), for the server log. */
  async refusedMembers(path: RootPath): Promise<readonly string[]> {
    return (await this.archive(path)).index.refused;
  }

  async close(): Promise<void> {
    const opened = this.opened;
    this.opened = undefined;
    await opened?.then((archive) => archive.bytes.close(), () => undefined);
  }

  async stat(path: RootPath, options: { followSymlinks?: boolean } = {}): Promise<EntryStat | null> {
    const { tree } = (await this.archive(path)).index;
    const result = tree.walk(path, options.followSymlinks ?? false);
    if (result.status === 'absent' || result.status === 'missing' || result.status === 'not-a-directory') return null;
    if (result.status !== 'found') throw walkFailure(result, path, 'path');
    return tree.statOf(baseName(path), result.node, parentPath(result.path));
  }

  async readDirectory(path: RootPath, options: { describeLinks?: boolean } = {}): Promise<EntryStat[]> {
    const { tree } = (await this.archive(path)).index;
    const result = tree.walk(path, true);
    if (result.status !== 'found') throw walkFailure(result, path, 'directory');
    if (result.node.kind !== 'directory') throw errors.notADirectory(path.root.name, displayPath(path));
    const describeLinks = options.describeLinks ?? true;
    return [...result.node.children].filter(([name]) => !isOwnWorkFile(name)).map(([name, child]) => tree.statOf(name, child, result.path, describeLinks));
  }

  /** An archive never changes while mounted: a folder's listing is the same for as long as it is open. */
  async directoryVersion(path: RootPath): Promise<FileVersion | undefined> {
    const { tree } = (await this.archive(path)).index;
    const result = tree.walk(path, true);
    if (result.status !== 'found') throw walkFailure(result, path, 'directory');
    if (result.node.kind !== 'directory') throw errors.notADirectory(path.root.name, displayPath(path));
    return `archive:${result.path.segments.join('/')}`;
  }

  async *scanTree(path: RootPath, options: TreeScanOptions): AsyncGenerator<TreeScanBatch> {
    const { index, bytes } = await this.archive(path);
    const result = index.tree.walk(path, true);
    if (result.status !== 'found') throw walkFailure(result, path, 'directory');
    if (result.node.kind !== 'directory') throw errors.notADirectory(path.root.name, displayPath(path));
    yield* scanMemoryTree(index.tree, result.path, result.node, options, versionOf, (file) => contentsOf(bytes, file));
  }

  async openFile(path: RootPath): Promise<ReadableFile> {
    const { index, bytes } = await this.archive(path);
    const result = index.tree.walk(path, true);
    if (result.status !== 'found') throw walkFailure(result, path, 'file');
    const { node } = result;
    if (node.kind === 'directory') throw errors.isADirectory(path.root.name, displayPath(path));
    if (node.kind !== 'file' || node.stored === undefined) throw errors.notAFile(path.root.name, displayPath(path));
    const stored = node.stored;
    let closed = false;
    return {
      stat: index.tree.statOf(baseName(path), node, parentPath(result.path)),
      version: versionOf(node),
      async read(position: number, length: number): Promise<Uint8Array> {
        if (closed) throw new DomainError('IO_ERROR', `I/O error (file closed): ${displayPath(path)}${inRoot(path.root.name)}`);
        // Security: a read never leaves the member's own extent, whatever the caller asks.
        const start = Math.min(Math.max(0, position), stored.size);
        return bytes.read(stored.offset + start, Math.max(0, Math.min(length, stored.size - start)));
      },
      async close(): Promise<void> {
        closed = true;
      },
    };
  }

  async ownerNames(uid: number, gid: number): Promise<{ owner: string; group: string }> {
    const { owners, groups } = this.opened ? (await this.opened).index : { owners: new Map<number, string>(), groups: new Map<number, string>() };
    return { owner: owners.get(uid) ?? String(uid), group: groups.get(gid) ?? String(gid) };
  }

  writeFile(path: RootPath): Promise<WriteResult> {
    return readOnly(path);
  }

  createDirectory(path: RootPath): Promise<{ created: boolean }> {
    return readOnly(path);
  }

  setDirectoryPermissions(path: RootPath): Promise<number> {
    return readOnly(path);
  }

  removeFile(path: RootPath): Promise<void> {
    return readOnly(path);
  }

  removeDirectory(path: RootPath): Promise<void> {
    return readOnly(path);
  }

  rename(_from: RootPath, to: RootPath): Promise<'renamed' | 'cross-device'> {
    return readOnly(to);
  }

  copyFile(_from: RootPath, to: RootPath): Promise<{ size: number }> {
    return readOnly(to);
  }

  copyBatch(entries: readonly CopyBatchEntry[]): Promise<CopyBatchOutcome> {
    if (entries.length === 0) return Promise.resolve({ placed: [] });
    return readOnly(entries[0].to);
  }

  /** Locks serve read-modify-write edits, which an archive never gets. */
  lockFile(path: RootPath): Promise<FileLock> {
    return readOnly(path);
  }
}

async function readOnly(path: RootPath): Promise<never> {
  throw errors.readOnlyRoot(path.root.name, displayPath(path));
}

/** An archive member never changes: where it lies is its version. */
function versionOf(file: FileNode): string {
  return `archive:${file.stored?.offset ?? 0}:${file.stored?.size ?? 0}`;
}

function contentsOf(bytes: ArchiveBytes, file: FileNode): Promise<Uint8Array> {
  return file.stored === undefined ? Promise.resolve(new Uint8Array(0)) : bytes.read(file.stored.offset, file.stored.size);
}
