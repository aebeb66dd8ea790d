import { DomainError } from '../errors.js';
import type { ChangeFeed } from '../ports/change-feed.port.js';
import type { CopyBatchEntry, CopyBatchOutcome, FileSystemPort, WriteOptions, WriteResult } from '../ports/file-system.port.js';
import { parentPath, type RootPath } from '../roots.js';
import type { WorkContext } from '../work-context.js';
import { ReadThroughFileSystem } from './read-through-file-system.js';
import type { RootKeys } from './root-keys.js';

/**
 * The one publish point of changes made through this server (issue 18 §4, several replicas): a
 * FileSystemPort around whatever file system is bound (the journaling one while the journal is
 * on), so every write of every tool, present and future, is told to the ChangeFeed once it is
 * done, whichever tool made it. Reads pass straight through.
 *
 * Security: a change carries the root's key and in-root segments only, never a host path.
 */
export class NotifyingFileSystem extends ReadThroughFileSystem implements FileSystemPort {
  constructor(
    inner: FileSystemPort,
    private readonly feed: ChangeFeed,
    private readonly keys: RootKeys,
  ) {
    super(inner);
  }

  async writeFile(path: RootPath, data: Uint8Array, options: WriteOptions): Promise<WriteResult> {
    if (options.createParents && path.segments.length > 1) {
      // The usual case, a folder that exists, costs no lookup: the write is tried without making folders first.
      try {
        const result = await this.inner.writeFile(path, data, { ...options, createParents: false });
        this.publish([path]);
        return result;
      } catch (error) {
        if (!(error instanceof DomainError) || error.code !== 'NOT_FOUND') throw error;
      }
      // Folders the write makes on the way are entries added to the folder above them.
      const made = await this.firstMissing(parentPath(path));
      const result = await this.inner.writeFile(path, data, options);
      this.publish(made === null ? [path] : [path, made]);
      return result;
    }
    const result = await this.inner.writeFile(path, data, options);
    this.publish([path]);
    return result;
  }

  async createDirectory(path: RootPath, options?: { readonly permissions?: number }): Promise<{ created: boolean }> {
    const made = await this.firstMissing(path);
    const result = await this.inner.createDirectory(path, options);
    if (result.created) this.publish([made ?? path]);
    return result;
  }

  async setDirectoryPermissions(path: RootPath, permissions: number): Promise<number> {
    const now = await this.inner.setDirectoryPermissions(path, permissions);
    this.publish([path]);
    return now;
  }

  async removeFile(path: RootPath): Promise<void> {
    await this.inner.removeFile(path);
    this.publish([path]);
  }

  async removeDirectory(path: RootPath, work?: WorkContext): Promise<void> {
    try {
      await this.inner.removeDirectory(path, work);
    } finally {
      // A cancelled or failed removal may have removed part of the tree already.
      this.publish([path]);
    }
  }

  async rename(from: RootPath, to: RootPath): Promise<'renamed' | 'cross-device'> {
    const outcome = await this.inner.rename(from, to);
    if (outcome === 'renamed') this.publish([from, to]);
    return outcome;
  }

  async copyFile(from: RootPath, to: RootPath): Promise<{ size: number }> {
    const result = await this.inner.copyFile(from, to);
    // The source is only read: the copy is the one entry that changed.
    this.publish([to]);
    return result;
  }

  async copyBatch(entries: readonly CopyBatchEntry[], options?: { readonly beforeCommit?: () => Promise<void> }): Promise<CopyBatchOutcome> {
    const outcome = await this.inner.copyBatch(entries, options);
    // What was placed changed, even when a failure stopped the rest: a file copied, a folder made.
    const changed = entries.filter((entry, index) => index < outcome.placed.length && (entry.kind === 'file' || outcome.placed[index].created));
    if (changed.length > 0) this.publish(changed.map((entry) => entry.to));
    return outcome;
  }

  /** One change per root touched (a move between two roots tells each of them its own). */
  private publish(paths: readonly RootPath[]): void {
    const byRoot = new Map<string, (readonly string[])[]>();
    for (const path of paths) {
      const key = this.keys.of(path.root);
      byRoot.set(key, [...(byRoot.get(key) ?? []), path.segments]);
    }
    for (const [rootKey, touched] of byRoot) this.feed.publish({ rootKey, paths: touched });
  }

  /**
   * The topmost folder of `path` that does not exist yet; null when `path` exists or the lookup
   * failed (the write itself then answers with the error). Existence is monotone along a path (a
   * deeper entry is reached through every shorter one), so it is found by bisection: a few lookups
   * even for a path a thousand folders deep.
   */
  private async firstMissing(path: RootPath): Promise<RootPath | null> {
    const prefix = (depth: number): RootPath => ({ root: path.root, segments: path.segments.slice(0, depth) });
    const exists = async (depth: number) => depth === 0 || (await this.inner.stat(prefix(depth), { followSymlinks: true })) !== null;
    try {
      if (await exists(path.segments.length)) return null;
      let [present, missing] = [0, path.segments.length];
      while (missing - present > 1) {
        const middle = (present + missing) >> 1;
        if (await exists(middle)) present = middle;
        else missing = middle;
      }
      return prefix(missing);
    } catch {
      return null;
    }
  }
}
