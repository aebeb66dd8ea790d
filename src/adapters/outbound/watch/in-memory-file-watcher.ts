import { errors } from '../../../domain/errors.js';
import type { FileWatcher, TreeChangeListener, Watch, WatchedKind } from '../../../domain/ports/file-watcher.port.js';
import type { FileSystemPort } from '../../../domain/ports/file-system.port.js';
import { displayPath, type Root, type RootPath } from '../../../domain/roots.js';

interface WatchedTree {
  readonly root: string;
  readonly directories: ReadonlySet<string>;
  readonly listener: TreeChangeListener;
}

interface Watched {
  readonly key: string;
  readonly onChange: () => void;
}

/**
 * A watcher for domain tests: it checks a path exactly as the file system port looks it up (so it
 * refuses what a read refuses) and reports a change only when the test says one happened.
 */
export class InMemoryFileWatcher implements FileWatcher {
  private readonly watched = new Set<Watched>();
  private readonly trees = new Set<WatchedTree>();

  constructor(private readonly files: FileSystemPort) {}

  get size(): number {
    return this.watched.size;
  }

  async watch(path: RootPath, _kind: WatchedKind, onChange: () => void): Promise<Watch> {
    const entry = await this.files.stat(path, { followSymlinks: true });
    if (!entry) throw errors.notFound('path', path.root.name, displayPath(path));
    const watched: Watched = { key: keyOf(path), onChange };
    this.watched.add(watched);
    return { close: () => this.watched.delete(watched) };
  }

  async watchTree(root: Root, directories: readonly string[], listener: TreeChangeListener): Promise<Watch> {
    for (const directory of directories) {
      const segments = directory === '' ? [] : directory.split('/');
      // As the Node adapter: a directory a read would refuse (gone, a link) cannot be vouched for.
      if ((await this.files.stat({ root, segments }, { followSymlinks: false }))?.kind !== 'directory') listener.unknown();
    }
    const tree: WatchedTree = { root: root.hostPath, directories: new Set(directories), listener };
    this.trees.add(tree);
    return { close: () => this.trees.delete(tree) };
  }

  /** The test's change at `path`: every open watch of it is told, and every tree watch of its folder. */
  changed(path: RootPath): void {
    for (const watched of this.watched) if (watched.key === keyOf(path)) watched.onChange();
    const folder = path.segments.slice(0, -1).join('/');
    for (const tree of this.trees) {
      if (tree.root === path.root.hostPath && path.segments.length > 0 && tree.directories.has(folder)) tree.listener.changed(path.segments.join('/'));
    }
  }

  /** The test's lost events (an overflow, an error): every tree watch of the root can no longer vouch. */
  lost(root: Root): void {
    for (const tree of this.trees) if (tree.root === root.hostPath) tree.listener.unknown();
  }
}

function keyOf(path: RootPath): string {
  return `${path.root.hostPath}\0${path.segments.join('/')}`;
}
