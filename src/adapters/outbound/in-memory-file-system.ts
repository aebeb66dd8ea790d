import { errors, inRoot } from '../../domain/errors.js';
import { fitsHostPath, hostPathInside, hostPathOf, hostPathTooLong } from '../../domain/path-policy.js';
import type { Clock } from '../../domain/ports/clock.port.js';
import type {
  CopyBatchEntry,
  CopyBatchOutcome,
  EntryStat,
  FileLock,
  FileSystemPort,
  FileVersion,
  ReadableFile,
  WriteOptions,
  WriteResult,
} from '../../domain/ports/file-system.port.js';
import type { TreeScanBatch, TreeScanOptions } from '../../domain/ports/tree-scan-types.js';
import { baseName, displayPath, parentPath, type RootPath } from '../../domain/roots.js';
import { concat, openSnapshot } from './in-memory/file-bytes.js';
import { rootItself, walkFailure } from './in-memory/failures.js';
import { InMemoryTreeChanges } from './in-memory/tree-changes.js';
// The Node adapter's naming rule for its own temp and lock files, shared so that the model hides the same names.
import { isOwnWorkFile } from '../../domain/work-files.js';
import { scanMemoryTree } from './in-memory/tree-scan.js';
import { type DirectoryNode, newFile, type TreeNode } from './in-memory/tree.js';
import { throwIfCancelled, type WorkContext } from '../../domain/work-context.js';

/** uid/gid 1000 is the account every seeded entry belongs to. */
const USER_NAMES: ReadonlyMap<number, string> = new Map([
  [0, 'root'],
  [1000, 'agent'],
]);

/**
 * FileSystemPort over an in-memory tree with the Node adapter's semantics (the contract
 * suite keeps them aligned). Seeding and inspection helpers for tests live in
 * InMemorySeeding and take host-style absolute paths.
 */
export class InMemoryFileSystem extends InMemoryTreeChanges implements FileSystemPort {
  /** Per file node, a token that changes with every write through this port (the inode + ctime stand-in). */
  private readonly revisions = new WeakMap<TreeNode, number>();
  private nextRevision = 1;
  private readonly lockTails = new Map<string, Promise<void>>();

  constructor(options: { clock?: Clock } = {}) {
    super(options.clock);
  }

  /** One process's lock: a promise chain per resolved path (no inodes here; the resolved path names the file). */
  async lockFile(path: RootPath): Promise<FileLock> {
    let result = this.tree.walk(path, true);
    // A final link that leaves the root or loops is replaced, not written through, by copy and move: lock the link's own name.
    if (result.status === 'outside' || result.status === 'loop') result = this.tree.walk(path, false);
    if (result.status === 'outside' || result.status === 'loop') throw walkFailure(result, path, 'path');
    if (result.status === 'missing' || result.status === 'not-a-directory') throw walkFailure(result, path, 'directory');
    const key = `${result.path.root.name}\0${result.path.segments.join('/')}`;
    const previous = this.lockTails.get(key) ?? Promise.resolve();
    let unlock!: () => void;
    const chained = previous.then(() => new Promise<void>((resolve) => (unlock = resolve)));
    this.lockTails.set(key, chained);
    await previous;
    let released = false;
    return {
      release: async () => {
        if (released) return;
        released = true;
        unlock();
        if (this.lockTails.get(key) === chained) this.lockTails.delete(key);
      },
    };
  }

  private versionOf(node: TreeNode & { data: Uint8Array; modifiedAt: Date }): FileVersion {
    let revision = this.revisions.get(node);
    if (revision === undefined) {
      revision = this.nextRevision++;
      this.revisions.set(node, revision);
    }
    return `${revision}:${node.data.length}:${node.modifiedAt.getTime()}`;
  }

  async stat(path: RootPath, options: { followSymlinks?: boolean } = {}): Promise<EntryStat | null> {
    const result = this.tree.walk(path, options.followSymlinks ?? false);
    // Like lstat's ENOENT and ENOTDIR alike: nothing can exist below a missing entry or a file.
    if (result.status === 'absent' || result.status === 'missing' || result.status === 'not-a-directory') return null;
    if (result.status !== 'found') throw walkFailure(result, path, 'path');
    return this.tree.statOf(baseName(path), result.node, parentPath(result.path));
  }

  async readDirectory(path: RootPath, options: { describeLinks?: boolean } = {}): Promise<EntryStat[]> {
    const result = this.tree.walk(path, true);
    if (result.status !== 'found') throw walkFailure(result, path, 'directory');
    if (result.node.kind !== 'directory') throw errors.notADirectory(path.root.name, displayPath(path));
    const describeLinks = options.describeLinks ?? true;
    return [...result.node.children].filter(([name]) => !isOwnWorkFile(name)).map(([name, child]) => this.tree.statOf(name, child, result.path, describeLinks));
  }

  /** The directory's identity (a revision per node) and its names with their kinds: what a listing of it shows. */
  async directoryVersion(path: RootPath): Promise<FileVersion | undefined> {
    const result = this.tree.walk(path, true);
    if (result.status !== 'found') throw walkFailure(result, path, 'directory');
    if (result.node.kind !== 'directory') throw errors.notADirectory(path.root.name, displayPath(path));
    let revision = this.revisions.get(result.node);
    if (revision === undefined) {
      revision = this.nextRevision++;
      this.revisions.set(result.node, revision);
    }
    return `${revision}:${[...result.node.children].map(([name, child]) => `${name}/${child.kind}`).join('|')}`;
  }

  async *scanTree(path: RootPath, options: TreeScanOptions): AsyncGenerator<TreeScanBatch> {
    const result = this.tree.walk(path, true);
    if (result.status !== 'found') throw walkFailure(result, path, 'directory');
    if (result.node.kind !== 'directory') throw errors.notADirectory(path.root.name, displayPath(path));
    yield* scanMemoryTree(this.tree, result.path, result.node, options, (file) => this.versionOf(file));
  }

  async openFile(path: RootPath): Promise<ReadableFile> {
    const result = this.tree.walk(path, true);
    if (result.status !== 'found') throw walkFailure(result, path, 'file');
    const { node } = result;
    if (node.kind === 'directory') throw errors.isADirectory(path.root.name, displayPath(path));
    if (node.kind !== 'file') throw errors.notAFile(path.root.name, displayPath(path));
    const stat = this.tree.statOf(baseName(path), node, parentPath(result.path));
    return { ...openSnapshot(stat, node.data.slice(), path), version: this.versionOf(node) };
  }

  async writeFile(path: RootPath, data: Uint8Array, options: WriteOptions): Promise<WriteResult> {
    // The model's write is one synchronous step after the hook: nothing is visible before it.
    const condition = await options.beforeCommit?.();
    const expected = options.expected ?? condition?.expected;
    if (path.segments.length === 0) throw errors.isADirectory(path.root.name, '.');
    if (options.createParents) this.makeDirectories(parentPath(path), path);
    const entry = this.tree.walk(path, false);
    if (options.mode === 'create_exclusive' && entry.status === 'found') {
      throw errors.alreadyExists(path.root.name, displayPath(path));
    }
    if (entry.status === 'missing') throw errors.notFound('directory', path.root.name, displayPath(parentPath(path)));
    // A final in-root link is written through: walk again, this time following it.
    let target = entry.status === 'found' && entry.node.kind === 'symlink' ? this.tree.walk(path, true) : entry;
    if (target.status === 'missing' && options.createParents) {
      this.makeDirectories(parentPath(target.path), path);
      target = this.tree.walk(path, true);
    }
    if ((target.status === 'found' || target.status === 'absent') && !fitsHostPath(target.path)) throw hostPathTooLong(path);
    if (target.status === 'found') {
      if (target.node.kind === 'directory') throw errors.isADirectory(path.root.name, displayPath(path));
      if (target.node.kind !== 'file') throw errors.notAFile(path.root.name, displayPath(path));
      this.checkInjectedFailure(target.path, path);
      const file = target.node;
      if (options.mode === 'replace' && expected !== undefined && this.versionOf(file) !== expected) {
        throw errors.conflict(path.root.name, displayPath(path));
      }
      this.revisions.set(file, this.nextRevision++);
      file.data = options.mode === 'append' ? concat(file.data, data) : data.slice();
      if (options.mode === 'replace' && options.permissions !== undefined) file.permissions = options.permissions;
      file.modifiedAt = this.now();
      return { created: false, size: file.data.length };
    }
    if (target.status !== 'absent') throw walkFailure(target, path, 'path');
    if (options.mode === 'replace' && expected !== undefined) throw errors.conflict(path.root.name, displayPath(path));
    this.checkInjectedFailure(target.path, path);
    const file = newFile(this.now(), data.slice(), (options.mode === 'replace' ? options.permissions : undefined) ?? options.newFilePermissions ?? 0o644);
    this.attach(target.parent, baseName(target.path), file);
    return { created: true, size: file.data.length };
  }

  async createDirectory(path: RootPath, options: { readonly permissions?: number } = {}): Promise<{ created: boolean }> {
    const created = this.makeDirectories(path, path);
    const made = this.tree.walk(path, true);
    if (created && options.permissions !== undefined && made.status === 'found') made.node.permissions = options.permissions & 0o7777;
    return { created };
  }

  async setDirectoryPermissions(path: RootPath, permissions: number): Promise<number> {
    const result = this.tree.walk(path, false);
    if (result.status !== 'found') throw walkFailure(result, path, 'directory');
    if (result.node.kind !== 'directory') throw errors.notADirectory(path.root.name, displayPath(path));
    result.node.permissions = permissions & 0o7777;
    return result.node.permissions;
  }

  async removeFile(path: RootPath, options: { readonly expected?: FileVersion } = {}): Promise<void> {
    const result = this.tree.walk(path, false);
    if (result.status !== 'found') throw walkFailure(result, path, 'file');
    if (result.node.kind === 'directory' || !result.parent) throw errors.isADirectory(path.root.name, displayPath(path));
    if (options.expected !== undefined && (result.node.kind !== 'file' || this.versionOf(result.node) !== options.expected)) {
      throw errors.conflict(path.root.name, displayPath(path), 'file changed before its removal');
    }
    this.detach(result.parent, baseName(result.path));
  }

  async removeDirectory(path: RootPath, work?: WorkContext): Promise<void> {
    throwIfCancelled(work);
    if (path.segments.length === 0) throw rootItself('cannot remove root directory', path);
    const result = this.tree.walk(path, false);
    if (result.status !== 'found') throw walkFailure(result, path, 'directory');
    if (result.node.kind !== 'directory' || !result.parent) throw errors.notADirectory(path.root.name, displayPath(path));
    // Dropping the subtree never looks at what its links point to.
    this.detach(result.parent, baseName(result.path));
  }

  async rename(from: RootPath, to: RootPath): Promise<'renamed' | 'cross-device'> {
    if (from.segments.length === 0) throw rootItself('cannot move root directory', from);
    if (to.segments.length === 0) throw rootItself('cannot replace root directory', to);
    const source = this.tree.walk(from, false);
    if (source.status !== 'found') throw walkFailure(source, from, 'source');
    const destination = this.tree.walk(to, false);
    if (destination.status !== 'found' && destination.status !== 'absent') throw walkFailure(destination, to, 'path');
    const sourceHost = hostPathOf(source.path);
    const destinationHost = hostPathOf(destination.path);
    if (sourceHost === destinationHost) return 'renamed';
    if (source.node.kind === 'directory' && hostPathInside(sourceHost, destinationHost) !== null) {
      throw errors.invalidArgument(
        `cannot move a directory into itself: ${displayPath(from)} -> ${displayPath(to)}${inRoot(to.root.name)}`,
      );
    }
    if (destination.status === 'found') {
      if (destination.node.kind === 'directory' || !destination.parent) throw errors.isADirectory(to.root.name, displayPath(to));
      if (source.node.kind === 'directory') throw errors.notADirectory(to.root.name, displayPath(to));
    }
    if (!fitsHostPath(destination.path)) throw hostPathTooLong(to);
    if (this.deviceOf(sourceHost) !== this.deviceOf(destinationHost)) return 'cross-device';
    this.detach(source.parent as DirectoryNode, baseName(source.path));
    this.attach(destination.parent as DirectoryNode, baseName(destination.path), source.node);
    return 'renamed';
  }

  async copyFile(from: RootPath, to: RootPath): Promise<{ size: number }> {
    return this.copyPlan(from, to).place();
  }

  /** Like the Node adapter: every file is checked (and read) before anything is placed, then each entry is placed in order. */
  async copyBatch(entries: readonly CopyBatchEntry[], options: { readonly beforeCommit?: () => Promise<void> } = {}): Promise<CopyBatchOutcome> {
    for (const entry of entries) if (entry.kind === 'file') this.copyPlan(entry.from, entry.to);
    await options.beforeCommit?.();
    const placed: { size: number; created: boolean }[] = [];
    for (const entry of entries) {
      try {
        if (entry.kind === 'directory') placed.push({ size: 0, created: (await this.createDirectory(entry.to, { permissions: entry.permissions })).created });
        else {
          const created = this.tree.walk(entry.to, false).status !== 'found';
          placed.push({ size: this.copyPlan(entry.from, entry.to).place().size, created });
        }
      } catch (failure) {
        return { placed, failure };
      }
    }
    return { placed };
  }

  async ownerNames(uid: number, gid: number): Promise<{ owner: string; group: string }> {
    return { owner: USER_NAMES.get(uid) ?? String(uid), group: USER_NAMES.get(gid) ?? String(gid) };
  }


}
