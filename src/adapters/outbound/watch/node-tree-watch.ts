import { watch as fsWatch, type FSWatcher } from 'node:fs';
import type { TreeChangeListener, Watch } from '../../../domain/ports/file-watcher.port.js';
import type { Root } from '../../../domain/roots.js';
import type { NodeFileSystem } from '../node-file-system.js';

/**
 * FileWatcher.watchTree on Linux: one non-recursive fs.watch (inotify) per directory, which reports
 * by name every entry added, removed or renamed in it and every child whose content or attributes
 * changed (IN_MODIFY, IN_ATTRIB, IN_CLOSE_WRITE arrive as 'change').
 * Security: each directory is opened by the confined walk (/proc/self/fd/N, the very object
 * checked), so one reached through a link leading outside is never watched. When a watched
 * directory's name is renamed, removed or replaced in its parent (a link swapped in), its watch and
 * every watch below are closed at once: events of a directory moved away, maybe out of the root,
 * are never told. Limits: inotify's queue (fs.inotify.max_queued_events, 16384 by default) drops
 * events when it overflows and Node does not report the overflow; between two polls of the event
 * loop at most that many events can be lost, which a burst of that size within one tick could cause.
 */
/** Directories watched between two turns of the event loop while a tree watch starts. */
const DIRECTORIES_PER_TURN = 32;

export class NodeTreeWatch implements Watch {
  private readonly watchers = new Map<string, FSWatcher>();
  private closed = false;

  constructor(
    private readonly files: NodeFileSystem,
    private readonly root: Root,
    private readonly listener: TreeChangeListener,
  ) {}

  get size(): number {
    return this.watchers.size;
  }

  async start(directories: readonly string[]): Promise<void> {
    let sinceTurn = 0;
    for (const directory of directories) {
      // Each directory is opened and checked with synchronous calls (the confined walk): thousands in
      // a row held every other call for over a second. Give way to I/O every few.
      if ((sinceTurn += 1) >= DIRECTORIES_PER_TURN) {
        sinceTurn = 0;
        await new Promise((resolve) => setImmediate(resolve));
      }
      if (this.closed) return;
      try {
        await this.add(directory);
      } catch {
        // Gone since it was listed, a link now, or the OS limit (ENOSPC): the tree cannot be vouched for.
        this.unknown();
        return;
      }
    }
  }

  close(): void {
    this.closed = true;
    for (const watcher of this.watchers.values()) watcher.close();
    this.watchers.clear();
  }

  private async add(directory: string): Promise<void> {
    const segments = directory === '' ? [] : directory.split('/');
    const watcher = await this.files.atDirectory({ root: this.root, segments }, (self) =>
      fsWatch(self, { persistent: false }, (event, filename) => this.heard(directory, event, filename)),
    );
    if (this.closed) return watcher.close();
    watcher.on('error', () => this.unknown());
    this.watchers.get(directory)?.close();
    this.watchers.set(directory, watcher);
  }

  private heard(directory: string, event: string, filename: string | Buffer | null): void {
    if (this.closed) return;
    if (typeof filename !== 'string' || filename === '') return this.unknown();
    const path = directory === '' ? filename : `${directory}/${filename}`;
    // Security: a watched directory renamed, removed or replaced is no longer the one its path names.
    if (event === 'rename') this.dropFrom(path);
    this.listener.changed(path);
  }

  private dropFrom(path: string): void {
    if (!this.watchers.has(path)) return;
    const below = `${path}/`;
    for (const [directory, watcher] of this.watchers) {
      if (directory !== path && !directory.startsWith(below)) continue;
      watcher.close();
      this.watchers.delete(directory);
    }
  }

  private unknown(): void {
    if (this.closed) return;
    this.close();
    this.listener.unknown();
  }
}
