import { openSync } from 'node:fs';
import { readdir, rmdir, unlink } from 'node:fs/promises';
import { childPath } from '../../../domain/roots.js';
import { throwIfCancelled, type WorkContext } from '../../../domain/work-context.js';
import { errnoOf, translate } from './node-errors.js';
import { Dir, DIRECTORY_FLAGS, type Walk, type Walker } from './walker.js';

/** The caller's work context plus the count of entries removed so far (its progress). */
export interface RemovalWork extends WorkContext {
  removed: number;
}

/**
 * rm -rf of `name` inside `parent` that never follows a link (NFR-009): every directory is
 * opened O_NOFOLLOW relative to its already-open parent and verified to lie inside the root;
 * anything that is not a real directory (links included) is unlinked, never entered.
 */
export async function removeTree(walker: Walker, parent: Dir, name: string, walk: Walk, work?: RemovalWork): Promise<void> {
  let fd: number;
  try {
    fd = openSync(parent.entry(name), DIRECTORY_FLAGS);
  } catch (error) {
    const code = errnoOf(error);
    // Security: it is a link (ELOOP) or became a non-directory since it was listed: remove the entry itself.
    if (code === 'ELOOP' || code === 'ENOTDIR') {
      walk.hop();
      return removeEntry(walker, parent, name, walk, work);
    }
    if (code === 'ENOENT') return;
    throw translate(error, walk.subject);
  }
  const dir = new Dir(fd, childPath(parent.path, name), walker.procFd);
  try {
    walker.verifySync(dir, parent.path.root, walk);
    for (const child of await readdir(dir.self)) await removeEntry(walker, dir, child, walk, work);
  } catch (error) {
    throw translate(error, walk.subject);
  } finally {
    await dir.close();
  }
  try {
    await rmdir(parent.entry(name));
  } catch (error) {
    throw translate(error, walk.subject);
  }
}

async function removeEntry(walker: Walker, dir: Dir, name: string, walk: Walk, work?: RemovalWork): Promise<void> {
  // A cancelled call stops between entries: what is removed stays removed, the rest stays.
  throwIfCancelled(work);
  if (work) work.progress?.(++work.removed, undefined, 'entries removed');
  const stats = await walker.lstatIn(dir, name, walk);
  if (stats === null) return;
  if (stats.isDirectory()) return removeTree(walker, dir, name, walk, work);
  try {
    // unlink(2) removes a link itself, never its target.
    await unlink(dir.entry(name));
  } catch (error) {
    const code = errnoOf(error);
    if (code === 'ENOENT') return;
    if (code !== 'EISDIR') throw translate(error, walk.subject);
    walk.hop();
    return removeTree(walker, dir, name, walk, work);
  }
}
