import { InMemoryFileSystem } from '../../src/adapters/outbound/in-memory-file-system.js';
import { NodeFileSystem } from '../../src/adapters/outbound/node-file-system.js';
import { RootRoutedFileSystem } from '../../src/adapters/outbound/root-routed-file-system.js';
import { InMemoryFileWatcher } from '../../src/adapters/outbound/watch/in-memory-file-watcher.js';
import { NodeFileWatcher } from '../../src/adapters/outbound/watch/node-file-watcher.js';
import { RootRoutedFileWatcher } from '../../src/adapters/outbound/watch/root-routed-file-watcher.js';
import { chooseFileSystem } from '../../src/composition/file-system-binding.js';
import { makeRoot } from '../support/roots.js';

const DIRECTORY_ROOT = { name: 'ws', path: '/srv/ws', allowedTools: ['*'] };
const ARCHIVE_ROOT = { name: 'rel', path: '/srv/release.tar', allowedTools: ['*'], archive: true };

describe('chooseFileSystem: each file system bound with its own watcher, no instanceof', () => {
  it('binds the Node adapter with the inotify watcher by default', () => {
    const pair = chooseFileSystem({ roots: [DIRECTORY_ROOT] }, {});
    expect(pair.files).toBeInstanceOf(NodeFileSystem);
    expect(pair.watcher).toBeInstanceOf(NodeFileWatcher);
  });

  it('watches an override in memory unless told otherwise, and takes the watcher it is given', () => {
    const files = new InMemoryFileSystem();
    expect(chooseFileSystem({ roots: [DIRECTORY_ROOT] }, { fileSystem: files }).watcher).toBeInstanceOf(InMemoryFileWatcher);
    const own = new InMemoryFileWatcher(files);
    expect(chooseFileSystem({ roots: [DIRECTORY_ROOT] }, { fileSystem: files, fileWatcher: () => own }).watcher).toBe(own);
  });

  it('routes an archive root to an ArchiveFileSystem by its host path, and every other root to the usual adapter', async () => {
    const usual = new InMemoryFileSystem();
    usual.seedDirectory('/srv/ws');
    const pair = chooseFileSystem({ roots: [DIRECTORY_ROOT, ARCHIVE_ROOT] }, { fileSystem: usual });
    expect(pair.files).toBeInstanceOf(RootRoutedFileSystem);
    expect(pair.watcher).toBeInstanceOf(RootRoutedFileWatcher);
    expect(await pair.files.stat({ root: makeRoot('ws', '/srv/ws'), segments: [] })).toMatchObject({ kind: 'directory' });
    // The archive adapter answers for its root (a write is refused before the archive is even opened).
    await expect(pair.files.createDirectory({ root: makeRoot('rel', '/srv/release.tar'), segments: ['x'] })).rejects.toThrow(
      'read-only root (an archive): cannot change x (root: rel)',
    );
    await expect(usual.createDirectory({ root: makeRoot('ws', '/srv/ws'), segments: ['x'] })).resolves.toEqual({ created: true });
  });
});
