import { closeSync, constants, fchmodSync, fsync, lstatSync, mkdirSync, openSync, readlinkSync, type Stats } from 'node:fs';
import { promisify } from 'node:util';
import { fitsHostPath, hostPathInside, hostPathTooLong, resolveLinkTarget } from '../../../domain/path-policy.js';
import { errors } from '../../../domain/errors.js';
import { baseName, childPath, displayPath, parentPath, type Root, type RootPath } from '../../../domain/roots.js';
import { DirectoryCache } from './directory-cache.js';
import { Dir, Walk, type HasFd, type Located } from './dir.js';
import { errnoOf, outsideRoot, translate } from './node-errors.js';

/** Security: O_NOFOLLOW, so a directory is only ever opened when the entry itself is one, never through a link. */
export const DIRECTORY_FLAGS = constants.O_RDONLY | constants.O_DIRECTORY | constants.O_NOFOLLOW;
/** Security: a file is opened only when the entry itself is one (O_NOFOLLOW); O_NONBLOCK so a FIFO planted in a root cannot hang the server on open. */
export const FILE_READ_FLAGS = constants.O_RDONLY | constants.O_NOFOLLOW | constants.O_NONBLOCK;
const NEW_DIRECTORY_MODE = 0o755;
/** Each '..' drops at least two bytes ('/' and a name), so this reaches back far past PATH_MAX. */
const MAX_CLIMB = 4096;

export { Dir, Walk, type HasFd, type Located };

type Step = { readonly dir: Dir; readonly created: boolean } | { readonly link: string | null };

/**
 * Walks in-root paths one component at a time from an fd of the root, never letting the
 * kernel follow a link: every directory is opened O_NOFOLLOW relative to its already-open
 * parent, and every link met is read, judged with resolveLinkTarget and replaced by the
 * in-root path it names, which is then walked again from the root. "The root" may be a
 * deep directory a recent walk verified (DirectoryCache), which keeps deep tree walks and
 * copies linear in depth.
 *
 * Without /proc/self/fd (non-Linux) the same walk runs on real host paths: each component
 * is still opened O_NOFOLLOW, but the parents in that path are re-resolved by the kernel,
 * so a concurrent swap of a parent for a link can slip through. Linux is the supported platform.
 */
export class Walker {
  private readonly cache = new DirectoryCache();

  constructor(readonly procFd: boolean) {}

  /**
   * Opens the directory at `target` (links followed in-root); `create` makes missing components (0755,
   * the last one `lastMode`), each synced into its parent unless `syncCreated` is false (a batch that
   * syncs the parent itself).
   */
  async directory(target: RootPath, walk: Walk, create = false, lastMode = NEW_DIRECTORY_MODE, syncCreated = true): Promise<{ dir: Dir; created: boolean }> {
    let dir = await this.start(target, walk);
    let pending = target.segments.slice(dir.path.segments.length);
    let created = false;
    try {
      while (pending.length > 0) {
        const step = await this.step(dir, pending[0], create, walk, pending.length === 1 ? lastMode : NEW_DIRECTORY_MODE, syncCreated);
        if ('dir' in step) {
          await dir.close();
          dir = step.dir;
          created = step.created;
          pending.shift();
          continue;
        }
        walk.hop();
        if (step.link === null) continue;
        const next = resolveLinkTarget(dir.path, step.link);
        if (next === null) throw outsideRoot(walk.subject, step.link);
        const rest: RootPath = { root: target.root, segments: [...next.segments, ...pending.slice(1)] };
        await dir.close();
        dir = await this.start(rest, walk);
        pending = rest.segments.slice(dir.path.segments.length);
        created = false;
      }
      this.verifySync(dir, target.root, walk);
      return { dir: this.keep(dir), created };
    } catch (error) {
      await dir.close();
      throw error;
    }
  }

  /**
   * Opens the parent of `target` and lstats its last component. With `followFinal`, an
   * in-root link there is replaced by its target (hop by hop) until a non-link or nothing.
   */
  async locate(target: RootPath, walk: Walk, options: { followFinal: boolean; createParents?: boolean }): Promise<Located> {
    for (;;) {
      if (target.segments.length === 0) {
        const dir = await this.openRoot(target.root, walk);
        try {
          return { parent: dir, name: '.', stats: this.lstatInSync(dir, '.', walk), path: target };
        } catch (error) {
          await dir.close();
          throw error;
        }
      }
      const { dir } = await this.directory(parentPath(target), walk, options.createParents);
      const name = baseName(target);
      let next: RootPath | null;
      try {
        const stats = this.lstatInSync(dir, name, walk);
        if (!options.followFinal || !stats?.isSymbolicLink()) return { parent: dir, name, stats, path: childPath(dir.path, name) };
        const text = this.readLinkInSync(dir, name, walk);
        walk.hop();
        next = text === null ? childPath(dir.path, name) : resolveLinkTarget(dir.path, text);
        if (next === null) throw outsideRoot(walk.subject, text ?? undefined);
      } catch (error) {
        await dir.close();
        throw error;
      }
      await dir.close();
      target = next;
    }
  }

  /**
   * Security: defense in depth. Whatever we opened, the kernel's own name for it must lie
   * inside the root; if not (say, a directory was moved out while we held it), refuse.
   */
  async verify(handle: HasFd, root: Root, walk: Walk): Promise<void> {
    this.verifySync(handle, root, walk);
  }

  verifySync(handle: HasFd, root: Root, walk: Walk): void {
    if (!this.procFd) return;
    let actual: string;
    try {
      actual = readlinkSync(`/proc/self/fd/${handle.fd}`);
    } catch (error) {
      if (errnoOf(error) !== 'ENAMETOOLONG') throw translate(error, walk.subject);
      actual = this.nearestNamedAncestor(handle, error, walk);
    }
    if (hostPathInside(root.hostPath, actual) === null) throw outsideRoot(walk.subject, actual);
  }

  /**
   * The host path of the closest ancestor of a directory whose path the kernel can still
   * spell (a tree made by another process may pass PATH_MAX). Security: each hop opens `..`
   * of the directory we hold, so the answer is about that very object: if the ancestor lies
   * inside the root, so does everything below it. The climb is bounded.
   */
  private nearestNamedAncestor(handle: HasFd, tooLong: unknown, walk: Walk): string {
    let current = handle.fd;
    try {
      for (let hop = 0; hop < MAX_CLIMB; hop++) {
        let parent: number;
        try {
          parent = openSync(`/proc/self/fd/${current}/..`, DIRECTORY_FLAGS);
        } catch (error) {
          // Not a directory (a file's own path is too long): report the original failure.
          throw translate(errnoOf(error) === 'ENOTDIR' ? tooLong : error, walk.subject);
        }
        if (current !== handle.fd) closeSync(current);
        current = parent;
        try {
          return readlinkSync(`/proc/self/fd/${current}`);
        } catch (error) {
          if (errnoOf(error) !== 'ENAMETOOLONG') throw translate(error, walk.subject);
        }
      }
      throw translate(tooLong, walk.subject);
    } finally {
      if (current !== handle.fd) closeSync(current);
    }
  }

  /** lstat of one entry in `dir`; null when it does not exist. */
  async lstatIn(dir: Dir, name: string, walk: Walk): Promise<Stats | null> {
    return this.lstatInSync(dir, name, walk);
  }

  lstatInSync(dir: Dir, name: string, walk: Walk): Stats | null {
    return this.lstatAtSync(`${dir.self}/`, name, walk);
  }

  /** lstat of `prefix + name`, where `prefix` names a directory we hold ('' when it is the working directory). */
  lstatAtSync(prefix: string, name: string, walk: Walk): Stats | null {
    try {
      return lstatSync(prefix + name, { throwIfNoEntry: false }) ?? null;
    } catch (error) {
      if (errnoOf(error) === 'ENOENT') return null;
      throw translate(error, walk.subject);
    }
  }

  /** The text of the link `name` in `dir`; null when it stopped being a link. */
  async readLinkIn(dir: Dir, name: string, walk: Walk): Promise<string | null> {
    return this.readLinkInSync(dir, name, walk);
  }

  readLinkInSync(dir: Dir, name: string, walk: Walk): string | null {
    try {
      return readlinkSync(dir.entry(name));
    } catch (error) {
      const code = errnoOf(error);
      if (code === 'ENOENT' || code === 'EINVAL') return null;
      throw translate(error, walk.subject);
    }
  }

  /** Where a walk to `target` begins: the deepest still-valid cached directory above it, or the root. */
  private async start(target: RootPath, walk: Walk): Promise<Dir> {
    const lease = this.procFd ? this.cache.lease(target) : null;
    if (lease) return new Dir(lease.fd, lease.path, true, lease.release);
    return this.openRoot(target.root, walk);
  }

  /** Hands a freshly verified directory to the cache (when deep enough) and lends it back. */
  private keep(dir: Dir): Dir {
    if (!this.procFd || dir.leased) return dir;
    const lease = this.cache.keep(dir.fd, dir.path);
    return lease ? new Dir(lease.fd, lease.path, true, lease.release) : dir;
  }

  async openRoot(root: Root, walk: Walk): Promise<Dir> {
    try {
      return new Dir(openSync(root.hostPath, DIRECTORY_FLAGS), { root, segments: [] }, this.procFd);
    } catch (error) {
      throw translate(error, walk.subject, 'directory');
    }
  }

  /** Opens a child directory of `dir` without following it, or reports the link found there. */
  private async step(dir: Dir, name: string, create: boolean, walk: Walk, mode: number, syncCreated: boolean): Promise<Step> {
    const entry = dir.entry(name);
    let created = false;
    if (create) {
      // The physical path: a link on the way may have made it longer than the one asked for.
      if (!fitsHostPath(childPath(dir.path, name))) throw hostPathTooLong(walk.subject);
      created = makeDirectory(entry, walk);
    }
    let fd: number;
    try {
      fd = openSync(entry, DIRECTORY_FLAGS);
    } catch (error) {
      const code = errnoOf(error);
      if (code !== 'ENOTDIR' && code !== 'ELOOP') throw translate(error, walk.subject);
      const stats = this.lstatInSync(dir, name, walk);
      // The entry changed between the open and the lstat: walk this component again.
      if (stats === null || stats.isDirectory()) return { link: null };
      if (stats.isSymbolicLink()) return { link: this.readLinkInSync(dir, name, walk) };
      throw errors.notADirectory(walk.subject.root.name, displayPath(walk.subject));
    }
    const child = new Dir(fd, childPath(dir.path, name), this.procFd);
    if (created) {
      try {
        // Explicit, so the umask does not decide the mode of directories we create.
        fchmodSync(fd, mode);
        // Durability: the new directory is an entry of its parent; a write into it is acknowledged only once it exists on disk.
        if (syncCreated) await syncDirectory(dir, walk);
      } catch (error) {
        await child.close();
        throw translate(error, walk.subject);
      }
    }
    return { dir: child, created };
  }
}

const fsyncOnPool = promisify(fsync);

/**
 * Durability: a rename or a new name is an entry of the directory; syncing the directory makes an
 * acknowledged write survive a power loss, not only a crash of this process. A file system that
 * cannot sync a directory (EINVAL) has nothing more to offer. The fd stays open until fsync returns.
 */
export async function syncDirectory(dir: Dir, walk: Walk): Promise<void> {
  try {
    await fsyncOnPool(dir.fd);
  } catch (error) {
    if (errnoOf(error) !== 'EINVAL') throw translate(error, walk.subject);
  }
}

function makeDirectory(entry: string, walk: Walk): boolean {
  try {
    // Security: made 0700 (less under the umask), the mode it is meant to have set on the open directory: never more open meanwhile.
    mkdirSync(entry, 0o700);
    return true;
  } catch (error) {
    if (errnoOf(error) === 'EEXIST') return false;
    throw translate(error, walk.subject);
  }
}
