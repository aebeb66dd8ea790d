import type { FileWatcher, TreeChangeListener, Watch, WatchedKind } from '../../../domain/ports/file-watcher.port.js';
import type { Root, RootPath } from '../../../domain/roots.js';

/** One FileWatcher over roots watched by different adapters, routed by root host path as RootRoutedFileSystem routes. */
export class RootRoutedFileWatcher implements FileWatcher {
  constructor(
    private readonly usual: FileWatcher,
    private readonly special: ReadonlyMap<string, FileWatcher>,
  ) {}

  watch(path: RootPath, kind: WatchedKind, onChange: () => void): Promise<Watch> {
    return (this.special.get(path.root.hostPath) ?? this.usual).watch(path, kind, onChange);
  }

  watchTree(root: Root, directories: readonly string[], listener: TreeChangeListener): Promise<Watch> {
    return (this.special.get(root.hostPath) ?? this.usual).watchTree(root, directories, listener);
  }

  get size(): number {
    let total = this.usual.size;
    for (const watcher of this.special.values()) total += watcher.size;
    return total;
  }
}
