import { statSync, watch as fsWatch, type FSWatcher, type WatchListener } from 'node:fs';
import type { FileWatcher, TreeChangeListener, Watch, WatchedKind } from '../../../domain/ports/file-watcher.port.js';
import { errors } from '../../../domain/errors.js';
import { displayPath, isRootItself, type Root, type RootPath } from '../../../domain/roots.js';
import { watchLimitReached } from '../../../domain/watch-budget.js';
import type { NodeFileSystem } from '../node-file-system.js';
import { NodeTreeWatch } from './node-tree-watch.js';

/**
 * fs.watch (inotify on Linux: no polling, no library needed for a single directory). A path is
 * watched through its parent directory, which reports the entry's content changes and its
 * removal, replacement or rename by name; a directory is also watched itself for its entries.
 * Each folder above the parent, up to the root, is watched for the name of the next one: inotify
 * follows a directory, not a name, so a folder on the way removed (or moved) and made again would
 * otherwise leave the watch on the old one for good (issue 32). When one is, the watches below it
 * are made again, and the subscriber told.
 * Security: each watch is added on a directory the confined walk opened (/proc/self/fd/N, the very
 * object checked), so a directory reached through a link leading outside is never watched. When the
 * subscribed entry or a folder above it is replaced, the watches below are dropped at once (events
 * of the same read that follow are not delivered to a closed watcher) and made again through the
 * confined walk: a replacement by a link leading outside gets no watch, so nothing about the
 * outside target is ever reported. A folder reached through an in-root link can move away without
 * any name on the path changing (issue 33): each event is told only once its watch's folder is
 * still the one its path leads to (see WatchChain.heard). Linux inotify sees local file systems;
 * changes on network mounts may go unseen. The OS limit on watches (ENOSPC) is refused as WATCH_LIMIT_REACHED.
 */
export class NodeFileWatcher implements FileWatcher {
  private open = 0;

  constructor(private readonly files: NodeFileSystem) {}

  get size(): number {
    return this.open;
  }

  async watch(path: RootPath, kind: WatchedKind, onChange: () => void): Promise<Watch> {
    // Security: what a read refuses (missing, a link leading outside) is refused here too.
    if (!(await this.files.stat(path, { followSymlinks: true }))) throw errors.notFound('path', path.root.name, displayPath(path));
    if (isRootItself(path)) return this.track(await watchEntries(this.files, path, onChange));
    const chain = new WatchChain(this.files, path, kind, onChange);
    await chain.start();
    return this.track(chain);
  }

  async watchTree(root: Root, directories: readonly string[], listener: TreeChangeListener): Promise<Watch> {
    const tree = new NodeTreeWatch(this.files, root, listener);
    await tree.start(directories);
    // Not counted in `size`: that is the subscriptions' watches, which their budget governs.
    return tree;
  }

  private track(watch: Watch): Watch {
    this.open += 1;
    let closed = false;
    return {
      close: () => {
        if (closed) return;
        closed = true;
        this.open -= 1;
        watch.close();
      },
    };
  }
}

/** A watch of a directory's own entries (added, removed, renamed). */
function watchEntries(files: NodeFileSystem, path: RootPath, onChange: () => void): Promise<FSWatcher> {
  return files.atDirectory(path, (self) =>
    watchFolder(self, path, (event) => {
      if (event === 'rename') onChange();
    }),
  );
}

/** One OS watch of the folder at `self` (a /proc/self/fd path) for the subscription to `subscribed`. */
function watchFolder(self: string, subscribed: RootPath, listener: WatchListener<string>): FSWatcher {
  let watcher: FSWatcher;
  try {
    watcher = fsWatch(self, { persistent: false }, listener);
  } catch (error) {
    throw watchError(error, subscribed);
  }
  watcher.on('error', () => undefined);
  return watcher;
}

/**
 * ENOSPC from inotify_add_watch: the user's fs.inotify.max_user_watches is used up (by this server
 * or another process of the same user). The client is told which limit, never INTERNAL_ERROR.
 */
export function watchError(error: unknown, subscribed: RootPath): unknown {
  if ((error as NodeJS.ErrnoException | undefined)?.code !== 'ENOSPC') return error;
  return watchLimitReached(subscribed.root.name, displayPath(subscribed), "the operating system's limit on watches (fs.inotify.max_user_watches) is reached");
}

/**
 * Level k watches the folder of the path's first k segments for the name segments[k]; the last
 * level is the parent, which reports the entry itself. A directory entry adds `inner`, its entries.
 */
class WatchChain implements Watch {
  private readonly levels: (FSWatcher | undefined)[];
  private inner?: FSWatcher;
  /** Each watch's folder, by device and inode, as the walk that made the watch reached it. */
  private readonly identities = new WeakMap<FSWatcher, string>();
  /** Levels whose identity check runs, and those that heard more meanwhile (checked once again after it). */
  private readonly checking = new Set<number>();
  private readonly again = new Set<number>();
  /** Bumped by every rebuild, so a slower, older one stops rather than set watches over a newer one's. */
  private epoch = 0;
  private closed = false;

  constructor(
    private readonly files: NodeFileSystem,
    private readonly path: RootPath,
    private readonly kind: WatchedKind,
    private readonly onChange: () => void,
  ) {
    this.levels = path.segments.map(() => undefined);
  }

  async start(): Promise<void> {
    try {
      for (let k = 0; k < this.levels.length; k += 1) this.levels[k] = await this.level(k);
      if (this.kind === 'directory') this.inner = await this.entries();
    } catch (error) {
      this.close();
      throw error;
    }
  }

  close(): void {
    this.closed = true;
    this.dropFrom(0);
  }

  private level(k: number): Promise<FSWatcher> {
    const name = this.path.segments[k];
    const last = k === this.levels.length - 1;
    return this.files.atDirectory(this.upTo(k), (self) => {
      const identity = identityOf(self);
      const watcher = watchFolder(self, this.path, (event, filename) => {
        if (this.closed || filename !== name || (!last && event !== 'rename')) return;
        if (!last) this.rebuildFrom(k + 1);
        else if (this.kind === 'directory' && event === 'rename') this.rebuildFrom(k + 1);
        this.heard(k);
      });
      this.identities.set(watcher, identity);
      return watcher;
    });
  }

  /** The watched directory's own entries (the level past the last). */
  private entries(): Promise<FSWatcher> {
    const k = this.levels.length;
    return this.files.atDirectory(this.path, (self) => {
      const identity = identityOf(self);
      const watcher = watchFolder(self, this.path, (event) => {
        if (!this.closed && event === 'rename') this.heard(k);
      });
      this.identities.set(watcher, identity);
      return watcher;
    });
  }

  /**
   * Security (issue 33): an event is told only while the folder watched at level k is still the one
   * the confined walk reaches at its path. A folder reached through an in-root link and moved away
   * (into a root the subscriber may not use, say) keeps its inotify watch, and no name on the path
   * changes; its events would tell the subscriber of changes out of its reach. Such a watch is
   * dropped and made again through the walk, and the subscriber told once that its path changed.
   * One check runs per level at a time; events meanwhile are checked once more after it.
   */
  private heard(k: number): void {
    if (this.checking.has(k)) {
      this.again.add(k);
      return;
    }
    this.checking.add(k);
    void (async () => {
      do {
        this.again.delete(k);
        const watcher = this.watcherAt(k);
        if (watcher === undefined) break;
        const now = await this.files.atDirectory(this.upTo(k), identityOf).catch(() => undefined);
        // Dropped meanwhile (closed, or made again by a rebuild, which tells the subscriber itself).
        if (this.closed || watcher !== this.watcherAt(k)) break;
        if (now !== this.identities.get(watcher)) this.rebuildFrom(k);
        this.onChange();
      } while (this.again.has(k));
      this.checking.delete(k);
      this.again.delete(k);
    })();
  }

  private watcherAt(k: number): FSWatcher | undefined {
    return k < this.levels.length ? this.levels[k] : this.inner;
  }

  private upTo(k: number): RootPath {
    return { root: this.path.root, segments: this.path.segments.slice(0, k) };
  }

  private dropFrom(k: number): void {
    for (let i = k; i < this.levels.length; i += 1) {
      this.levels[i]?.close();
      this.levels[i] = undefined;
    }
    this.inner?.close();
    this.inner = undefined;
  }

  /** The folder (or, past the last level, the watched directory) at level k was replaced: watch what is there now. */
  private rebuildFrom(k: number): void {
    this.dropFrom(k);
    const epoch = (this.epoch += 1);
    const current = () => !this.closed && this.epoch === epoch;
    void (async () => {
      try {
        for (let i = k; i < this.levels.length; i += 1) {
          const watcher = await this.level(i);
          if (!current()) return watcher.close();
          this.levels[i] = watcher;
        }
        if (this.kind === 'directory') {
          const watcher = await this.entries();
          if (!current()) return watcher.close();
          this.inner = watcher;
        }
      } catch {
        // Gone, or now a link leading outside: no watch below until the folder above changes again.
        return;
      }
      // What changed below while nothing watched it is unknown: the subscriber looks again.
      this.onChange();
    })();
  }
}

/** A directory's device and inode, opened as the confined walk reached it. */
function identityOf(self: string): string {
  const stats = statSync(self);
  return `${stats.dev}:${stats.ino}`;
}
