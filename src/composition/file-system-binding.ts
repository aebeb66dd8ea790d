import { ArchiveFileSystem } from '../adapters/outbound/archive-file-system.js';
import { NodeFileSystem } from '../adapters/outbound/node-file-system.js';
import { RootRoutedFileSystem } from '../adapters/outbound/root-routed-file-system.js';
import { InMemoryFileWatcher } from '../adapters/outbound/watch/in-memory-file-watcher.js';
import { NodeFileWatcher } from '../adapters/outbound/watch/node-file-watcher.js';
import { RootRoutedFileWatcher } from '../adapters/outbound/watch/root-routed-file-watcher.js';
import type { AppConfig } from '../config/app-config.js';
import type { FileSystemPort } from '../domain/ports/file-system.port.js';
import type { FileWatcher } from '../domain/ports/file-watcher.port.js';

/** The real file system and its watcher, chosen together: each adapter is bound with the watcher that fits it. */
export interface FileSystemPair {
  readonly files: FileSystemPort;
  readonly watcher: FileWatcher;
}

export interface FileSystemChoice {
  /** Replaces the Node adapter (tests, another deployment); watched in memory unless `watcher` says otherwise. */
  readonly fileSystem?: FileSystemPort;
  readonly fileWatcher?: (files: FileSystemPort) => FileWatcher;
}

/**
 * The Node adapter (with its inotify watcher) for directory roots, or the override; each archive
 * root (roots[].archive) gets an ArchiveFileSystem, watched in memory (an archive never changes),
 * and one router puts them behind the single FileSystemPort the domain sees.
 */
export function chooseFileSystem(config: Pick<AppConfig, 'roots' | 'stateDir'>, choice: FileSystemChoice): FileSystemPair {
  let usual: FileSystemPair;
  if (choice.fileSystem) {
    usual = { files: choice.fileSystem, watcher: (choice.fileWatcher ?? memoryWatcher)(choice.fileSystem) };
  } else {
    // In-flight write records go to the private state directory loadConfig chose outside every root.
    const node = new NodeFileSystem(config.stateDir !== undefined ? { stateDir: config.stateDir } : {});
    usual = { files: node, watcher: choice.fileWatcher?.(node) ?? new NodeFileWatcher(node) };
  }
  const archives = config.roots.filter((root) => root.archive === true);
  if (archives.length === 0) return usual;
  const files = new Map<string, FileSystemPort>();
  const watchers = new Map<string, FileWatcher>();
  for (const root of archives) {
    const archive = new ArchiveFileSystem(root.path);
    files.set(root.path, archive);
    watchers.set(root.path, new InMemoryFileWatcher(archive));
  }
  return { files: new RootRoutedFileSystem(usual.files, files), watcher: new RootRoutedFileWatcher(usual.watcher, watchers) };
}

function memoryWatcher(files: FileSystemPort): FileWatcher {
  return new InMemoryFileWatcher(files);
}
