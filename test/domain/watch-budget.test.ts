import { InProcessChangeFeed } from '../../src/adapters/outbound/feed/in-process-change-feed.js';
import { InMemoryFileSystem } from '../../src/adapters/outbound/in-memory-file-system.js';
import { NodeContentHasher } from '../../src/adapters/outbound/node-content-hasher.js';
import { InMemoryFileWatcher } from '../../src/adapters/outbound/watch/in-memory-file-watcher.js';
import { RootKeys } from '../../src/domain/changes/root-keys.js';
import { Subscriptions } from '../../src/domain/subscriptions.js';
import type { FileWatcher } from '../../src/domain/ports/file-watcher.port.js';
import { displayPath } from '../../src/domain/roots.js';
import { WatchBudget, watchedFolders, watchLimitReached, watchLimitsOf, type WatchLimits } from '../../src/domain/watch-budget.js';
import { domainError, rootAccess } from '../support/domain.js';
import { makeRoot } from '../support/roots.js';

function world(limits: WatchLimits, maxPerSession = 256, refusing = false) {
  const fs = new InMemoryFileSystem();
  fs.seedFile('/ws/a.txt', 'a');
  fs.seedFile('/ws/b.txt', 'b');
  fs.seedFile('/ws/src/c.txt', 'c');
  fs.seedFile('/ws/src/deep/d.txt', 'd');
  fs.seedFile('/ws/lib/e.txt', 'e');
  const access = rootAccess(makeRoot('workspace', '/ws'));
  const watcher: FileWatcher = refusing ? osFull : new InMemoryFileWatcher(fs);
  const budget = new WatchBudget(limits);
  const subscriptions = new Subscriptions(access, fs, watcher, maxPerSession, new RootKeys(new NodeContentHasher()), new InProcessChangeFeed(), budget);
  const subscribe = (session: string, path: string, principal: string) => subscriptions.subscribe(session, 'workspace', path, () => undefined, principal);
  return { watcher, budget, subscriptions, subscribe };
}

/** A watcher whose OS has no watch left (the Node one maps ENOSPC to this). */
const osFull: FileWatcher = {
  size: 0,
  watch: async (path) => {
    throw watchLimitReached(path.root.name, displayPath(path), 'the operating system limit is reached');
  },
  watchTree: async (_root, _directories, listener) => {
    listener.unknown();
    return { close: () => undefined };
  },
};

describe('watchedFolders', () => {
  it('a file occupies the folders from the root to its parent; a folder also itself; the root one', () => {
    expect(watchedFolders('k', ['src', 'deep', 'd.txt'], 'file')).toEqual(['k\0', 'k\0src', 'k\0src/deep']);
    expect(watchedFolders('k', ['src', 'deep'], 'directory')).toEqual(['k\0', 'k\0src', 'k\0src/deep']);
    expect(watchedFolders('k', [], 'directory')).toEqual(['k\0']);
    expect(watchedFolders('k', ['a.txt'], 'file')).toEqual(['k\0']);
  });
});

describe('watchLimitsOf', () => {
  it('half the OS limit, capped, half of that per principal; configured values win; a fixed default without an OS limit', () => {
    expect(watchLimitsOf(undefined, 8192)).toEqual({ server: 4096, perPrincipal: 2048 });
    expect(watchLimitsOf(undefined, 1_000_000)).toEqual({ server: 65536, perPrincipal: 32768 });
    expect(watchLimitsOf(undefined, undefined)).toEqual({ server: 4096, perPrincipal: 2048 });
    expect(watchLimitsOf({ server: 600, perPrincipal: 0 }, 8192)).toEqual({ server: 600, perPrincipal: 300 });
    expect(watchLimitsOf({ server: 0, perPrincipal: 10 }, 100)).toEqual({ server: 50, perPrincipal: 10 });
  });
});

describe('Subscriptions within the watch budget', () => {
  it('counts each folder once however many subscriptions share it, and frees it with the last', async () => {
    const { budget, subscriptions, subscribe } = world({ server: 100, perPrincipal: 100 });
    await subscribe('s1', 'a.txt', 'token:a');
    await subscribe('s1', 'b.txt', 'token:a');
    expect(budget.inUse).toBe(1);
    await subscribe('s1', 'src/deep/d.txt', 'token:a');
    expect(budget.inUse).toBe(3);
    await subscribe('s2', 'src/c.txt', 'token:b');
    expect([budget.inUse, budget.inUseBy('token:a'), budget.inUseBy('token:b')]).toEqual([3, 3, 2]);
    subscriptions.unsubscribe('s1', 'workspace', 'src/deep/d.txt');
    expect([budget.inUse, budget.inUseBy('token:a')]).toEqual([2, 1]);
    subscriptions.dropSession('s1');
    subscriptions.dropSession('s2');
    expect([budget.inUse, budget.inUseBy('token:a'), budget.inUseBy('token:b')]).toEqual([0, 0, 0]);
  });

  it('refuses a principal past its budget with WATCH_LIMIT_REACHED naming root, path and limit; another principal still subscribes', async () => {
    const { budget, watcher, subscribe } = world({ server: 5, perPrincipal: 2 });
    await subscribe('s1', 'src/c.txt', 'token:a');
    const refused = await domainError(subscribe('s1', 'lib/e.txt', 'token:a'));
    expect(refused.toClientText()).toBe(
      'WATCH_LIMIT_REACHED: cannot watch lib/e.txt (root: workspace): it needs 1 more folder watches and this principal holds 2 of the 2 limits.watches_per_principal allows; unsubscribe from some resources first',
    );
    // A new session of the same principal shares its budget.
    expect((await domainError(subscribe('s9', 'lib/e.txt', 'token:a'))).code).toBe('WATCH_LIMIT_REACHED');
    // Folders it already holds cost it nothing more.
    await subscribe('s1', 'a.txt', 'token:a');
    await subscribe('s2', 'lib/e.txt', 'token:b');
    expect([budget.inUse, budget.inUseBy('token:a'), budget.inUseBy('token:b'), watcher.size]).toEqual([3, 2, 2, 3]);
  });

  it('refuses past the server budget, whoever asks', async () => {
    const { budget, subscribe } = world({ server: 3, perPrincipal: 3 });
    await subscribe('s1', 'src/c.txt', 'token:a');
    await subscribe('s2', 'lib/e.txt', 'token:b');
    const refused = await domainError(subscribe('s3', 'src/deep/d.txt', 'token:c'));
    expect(refused.message).toBe(
      'cannot watch src/deep/d.txt (root: workspace): it needs 1 more folder watches and the server holds 3 of the 3 limits.watches allows; unsubscribe from some resources first',
    );
    expect([budget.inUse, budget.inUseBy('token:c')]).toEqual([3, 0]);
  });

  it('counts every spelling of one entry as one subscription (per-session cap and budget)', async () => {
    const { budget, subscriptions, subscribe } = world({ server: 100, perPrincipal: 100 }, 2);
    const spellings = ['src/c.txt', './src/c.txt', 'src/./c.txt', 'src/deep/../c.txt', 'src//c.txt', 'lib/../src/c.txt'];
    const keys = new Set<string>();
    for (const spelling of spellings) keys.add(await subscribe('s', spelling, 'token:a'));
    expect(keys.size).toBe(1);
    expect([subscriptions.countOf('s'), budget.inUse]).toEqual([1, 2]);
    await subscribe('s', 'a.txt', 'token:a');
    expect((await domainError(subscribe('s', 'b.txt', 'token:a'))).message).toMatch(/^too many subscriptions/);
    expect(subscriptions.unsubscribe('s', 'workspace', './src/deep/../c.txt')).toBe([...keys][0]);
    expect([subscriptions.countOf('s'), budget.inUse]).toEqual([1, 1]);
  });

  it('a watch the operating system refuses gives its folders back', async () => {
    const { budget, subscriptions, subscribe } = world({ server: 100, perPrincipal: 100 }, 256, true);
    expect((await domainError(subscribe('s', 'src/c.txt', 'token:a'))).toClientText()).toBe(
      'WATCH_LIMIT_REACHED: cannot watch src/c.txt (root: workspace): the operating system limit is reached; unsubscribe from some resources first',
    );
    expect([budget.inUse, budget.inUseBy('token:a'), subscriptions.countOf('s')]).toEqual([0, 0, 0]);
  });
});
