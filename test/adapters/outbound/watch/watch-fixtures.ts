import { mkdirSync, symlinkSync, writeFileSync } from 'node:fs';
import { mkdtemp, realpath, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { InMemoryFileSystem } from '../../../../src/adapters/outbound/in-memory-file-system.js';
import { NodeFileSystem } from '../../../../src/adapters/outbound/node-file-system.js';
import { InMemoryFileWatcher } from '../../../../src/adapters/outbound/watch/in-memory-file-watcher.js';
import { NodeFileWatcher } from '../../../../src/adapters/outbound/watch/node-file-watcher.js';
import type { FileWatcher } from '../../../../src/domain/ports/file-watcher.port.js';
import type { Root } from '../../../../src/domain/roots.js';
import { makeRoot } from '../../../support/roots.js';

/** A root holding a.txt, dir/b.txt and `out`, a link to a directory outside holding secret.txt. */
export interface WatcherFixture {
  readonly watcher: FileWatcher;
  readonly root: Root;
  cleanup(): Promise<void>;
}

export async function nodeFixture(): Promise<WatcherFixture & { host: (rel: string) => string; outside: string }> {
  const base = await realpath(await mkdtemp(join(tmpdir(), 'watch-contract-')));
  const host = (rel: string) => join(base, 'root', rel);
  const outside = join(base, 'outside');
  mkdirSync(host('dir'), { recursive: true });
  mkdirSync(outside);
  writeFileSync(host('a.txt'), 'a');
  writeFileSync(host('dir/b.txt'), 'b');
  writeFileSync(join(outside, 'secret.txt'), 'TOP SECRET');
  symlinkSync(outside, host('out'));
  return { watcher: new NodeFileWatcher(new NodeFileSystem()), root: makeRoot('workspace', join(base, 'root')), host, outside, cleanup: () => rm(base, { recursive: true, force: true }) };
}

export async function memoryFixture(): Promise<WatcherFixture & { fs: InMemoryFileSystem; watcher: InMemoryFileWatcher }> {
  const fs = new InMemoryFileSystem();
  fs.seedFile('/ws/a.txt', 'a');
  fs.seedFile('/ws/dir/b.txt', 'b');
  fs.seedFile('/outside/secret.txt', 'TOP SECRET');
  fs.seedSymlink('/ws/out', '/outside');
  return { fs, watcher: new InMemoryFileWatcher(fs), root: makeRoot('workspace', '/ws'), cleanup: async () => undefined };
}
