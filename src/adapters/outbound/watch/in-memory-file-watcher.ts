import { errors } from '../../../domain/errors.js';
import type { FileWatcher, Watch, WatchedKind } from '../../../domain/ports/file-watcher.port.js';
import type { FileSystemPort } from '../../../domain/ports/file-system.port.js';
import { displayPath, type RootPath } from '../../../domain/roots.js';

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

  /** The test's change at `path`: every open watch of it is told. */
  changed(path: RootPath): void {
    for (const watched of this.watched) if (watched.key === keyOf(path)) watched.onChange();
  }
}

function keyOf(path: RootPath): string {
  return `${path.root.hostPath}\0${path.segments.join('/')}`;
}
