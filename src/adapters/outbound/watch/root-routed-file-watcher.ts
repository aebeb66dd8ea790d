import type { FileWatcher, Watch, WatchedKind } from '../../../domain/ports/file-watcher.port.js';
import type { RootPath } from '../../../domain/roots.js';

/** One FileWatcher over roots watched by different adapters, routed by root host path as RootRoutedFileSystem routes. */
export class RootRoutedFileWatcher implements FileWatcher {
  constructor(
    private readonly usual: FileWatcher,
    private readonly special: ReadonlyMap<string, FileWatcher>,
  ) {}

  watch(path: RootPath, kind: WatchedKind, onChange: () => void): Promise<Watch> {
    return (this.special.get(path.root.hostPath) ?? this.usual).watch(path, kind, onChange);
  }

  get size(): number {
    let total = this.usual.size;
    for (const watcher of this.special.values()) total += watcher.size;
    return total;
  }
}
