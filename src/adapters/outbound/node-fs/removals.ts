import { rename, unlink } from 'node:fs/promises';
import { DomainError, errors, inRoot } from '../../../domain/errors.js';
import { fitsHostPath, hostPathOf, hostPathTooLong } from '../../../domain/path-policy.js';
import type { FileVersion } from '../../../domain/ports/file-system.port.js';
import { displayPath, isRootItself, type RootPath } from '../../../domain/roots.js';
import type { WorkContext } from '../../../domain/work-context.js';
import { errnoOf, translate } from './node-errors.js';
import { removeTree } from './removal.js';
import { syncDirectory, Walk, type Walker } from './walker.js';
import { versionOf } from './writes.js';

/**
 * What takes an entry away from where it was: removing a file or a tree, and renaming. Each acts in
 * the directories the walker opened and verified, never at a re-resolved path, and syncs them.
 */
export class Removals {
  constructor(private readonly walker: Walker) {}

  async removeFile(path: RootPath, options: { readonly expected?: FileVersion } = {}): Promise<void> {
    const walk = new Walk(path);
    const found = await this.walker.locate(path, walk, { followFinal: false });
    try {
      if (found.stats === null) throw errors.notFound('file', path.root.name, displayPath(path));
      if (found.stats.isDirectory()) throw errors.isADirectory(path.root.name, displayPath(path));
      if (options.expected !== undefined && (!found.stats.isFile() || versionOf(found.stats) !== options.expected)) {
        throw errors.conflict(path.root.name, displayPath(path), 'file changed before its removal');
      }
      await unlink(found.parent.entry(found.name));
      // Durability: an acknowledged removal does not come back after a power loss.
      await syncDirectory(found.parent, walk);
    } catch (error) {
      throw translate(error, path, 'file');
    } finally {
      await found.parent.close();
    }
  }

  async removeDirectory(path: RootPath, work?: WorkContext): Promise<void> {
    if (isRootItself(path)) throw rootItself('remove', path);
    const walk = new Walk(path);
    const found = await this.walker.locate(path, walk, { followFinal: false });
    try {
      if (found.stats === null) throw errors.notFound('directory', path.root.name, displayPath(path));
      if (!found.stats.isDirectory()) throw errors.notADirectory(path.root.name, displayPath(path));
      await removeTree(this.walker, found.parent, found.name, walk, work && { signal: work.signal, progress: work.progress?.bind(work), removed: 0 });
      // Durability: the tree's own entry is gone from its parent for good; what was inside it is unreachable with it.
      await syncDirectory(found.parent, walk);
    } finally {
      await found.parent.close();
    }
  }

  async rename(from: RootPath, to: RootPath): Promise<'renamed' | 'cross-device'> {
    if (isRootItself(from)) throw rootItself('move', from);
    if (isRootItself(to)) throw rootItself('replace', to);
    const source = await this.walker.locate(from, new Walk(from), { followFinal: false });
    try {
      if (source.stats === null) throw errors.notFound('source', from.root.name, displayPath(from));
      const toWalk = new Walk(to);
      const target = await this.walker.locate(to, toWalk, { followFinal: false });
      try {
        if (target.stats?.isDirectory()) throw errors.isADirectory(to.root.name, displayPath(to));
        if (!fitsHostPath(target.path)) throw hostPathTooLong(to);
        await rename(source.parent.entry(source.name), target.parent.entry(target.name));
        // Durability: the new name and the old one's removal are entries of both directories.
        await syncDirectory(target.parent, toWalk);
        if (hostPathOf(source.parent.path) !== hostPathOf(target.parent.path)) await syncDirectory(source.parent, toWalk);
        return 'renamed';
      } catch (error) {
        if (errnoOf(error) === 'EXDEV') return 'cross-device';
        if (errnoOf(error) === 'EINVAL') throw intoItself(from, to);
        throw translate(error, to);
      } finally {
        await target.parent.close();
      }
    } finally {
      await source.parent.close();
    }
  }
}

function intoItself(from: RootPath, to: RootPath): DomainError {
  return new DomainError(
    'INVALID_ARGUMENT',
    `cannot move a directory into itself: ${displayPath(from)} -> ${displayPath(to)}${inRoot(to.root.name)}`,
    { root: to.root.name, attemptedPath: displayPath(to) },
  );
}

function rootItself(action: 'remove' | 'move' | 'replace', path: RootPath): DomainError {
  return new DomainError('ACCESS_DENIED', `cannot ${action} root directory${inRoot(path.root.name)}`, {
    root: path.root.name,
    attemptedPath: displayPath(path),
  });
}
