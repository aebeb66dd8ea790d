import { watch as fsWatch, type FSWatcher } from 'node:fs';
import type { FileWatcher, Watch, WatchedKind } from '../../../domain/ports/file-watcher.port.js';
import { errors } from '../../../domain/errors.js';
import { baseName, displayPath, isRootItself, parentPath, type RootPath } from '../../../domain/roots.js';
import type { NodeFileSystem } from '../node-file-system.js';

/**
 * fs.watch (inotify on Linux: no polling, no library needed for a single directory). A path is
 * watched through its parent directory, which reports the entry's content changes and its
 * removal, replacement or rename by name; a directory is also watched itself for its entries.
 * Security: each watch is added on a directory the confined walk opened (/proc/self/fd/N, the very
 * object checked), so a directory reached through a link leading outside is never watched. When the
 * subscribed entry is replaced, its own watch is dropped at once (events of the same read that
 * follow are not delivered to a closed watcher) and made again through the confined walk: a
 * replacement by a link leading outside gets no watch, so nothing about the outside target is
 * ever reported. Linux inotify sees local file systems; changes on network mounts may go unseen.
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
    if (isRootItself(path)) return this.track(await this.entries(path, onChange));
    const name = baseName(path);
    let inner: FSWatcher | undefined = kind === 'directory' ? await this.entries(path, onChange) : undefined;
    let closed = false;
    const rewatch = (): void => {
      inner?.close();
      inner = undefined;
      this.entries(path, onChange).then(
        (watcher) => {
          if (closed) watcher.close();
          else inner = watcher;
        },
        // Gone, or now a link leading outside: no watch until it is replaced again.
        () => undefined,
      );
    };
    const parent = await this.files.atDirectory(parentPath(path), (self) =>
      fsWatch(self, { persistent: false }, (event, filename) => {
        if (closed || filename !== name) return;
        if (kind === 'directory' && event === 'rename') rewatch();
        onChange();
      }),
    );
    parent.on('error', () => undefined);
    return this.track({
      close: () => {
        closed = true;
        parent.close();
        inner?.close();
      },
    });
  }

  /** A watch of a directory's own entries (added, removed, renamed). */
  private entries(path: RootPath, onChange: () => void): Promise<FSWatcher> {
    return this.files.atDirectory(path, (self) => {
      const watcher = fsWatch(self, { persistent: false }, (event) => {
        if (event === 'rename') onChange();
      });
      watcher.on('error', () => undefined);
      return watcher;
    });
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
