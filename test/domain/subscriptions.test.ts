import { InProcessChangeFeed } from '../../src/adapters/outbound/feed/in-process-change-feed.js';
import { InMemoryFileSystem } from '../../src/adapters/outbound/in-memory-file-system.js';
import { NodeContentHasher } from '../../src/adapters/outbound/node-content-hasher.js';
import { InMemoryFileWatcher } from '../../src/adapters/outbound/watch/in-memory-file-watcher.js';
import { NotifyingFileSystem } from '../../src/domain/changes/notifying-file-system.js';
import { RootKeys } from '../../src/domain/changes/root-keys.js';
import { Subscriptions } from '../../src/domain/subscriptions.js';
import { WatchBudget } from '../../src/domain/watch-budget.js';
import { Move } from '../../src/domain/tools/move.js';
import { RemoveFolder } from '../../src/domain/tools/remove-folder.js';
import { WriteFile } from '../../src/domain/tools/write-file.js';
import { domainError, rootAccess, TEST_SETTINGS } from '../support/domain.js';
import { makeRoot } from '../support/roots.js';
import { PathPolicy } from '../../src/domain/path-policy.js';
import type { Root } from '../../src/domain/roots.js';
import { RootAccess } from '../../src/domain/tools/root-access.js';
import { toolPolicy } from '../support/tools.js';

function world(maxPerSession = 256) {
  const fs = new InMemoryFileSystem();
  fs.seedFile('/ws/a.txt', 'a');
  fs.seedFile('/ws/src/b.txt', 'b');
  fs.seedFile('/outside/secret.txt', 'TOP SECRET');
  fs.seedSymlink('/ws/out', '/outside/secret.txt');
  fs.seedDirectory('/lf');
  const workspace = makeRoot('workspace', '/ws');
  const access = rootAccess(workspace, makeRoot('lister', '/lf', ['list_folder']));
  const watcher = new InMemoryFileWatcher(fs);
  const keys = new RootKeys(new NodeContentHasher());
  const feed = new InProcessChangeFeed();
  const subscriptions = new Subscriptions(access, fs, watcher, maxPerSession, keys, feed, new WatchBudget({ server: 1000, perPrincipal: 1000 }));
  const at = (...segments: string[]) => ({ root: workspace, segments });
  // The tools write through the notifying file system, as the composition root binds it; the watcher is never told here.
  const notifying = new NotifyingFileSystem(fs, feed, keys);
  const tools = { writeFile: new WriteFile(access, notifying, TEST_SETTINGS), removeFolder: new RemoveFolder(access, notifying), move: new Move(notifying, access) };
  return { fs, watcher, subscriptions, at, feed, tools, workspaceKey: keys.of(workspace) };
}

describe('Subscriptions', () => {
  it('tells each subscribed session of a change, sharing one watch, released with the last subscriber', async () => {
    const { watcher, subscriptions, at } = world();
    const told: string[] = [];
    await subscriptions.subscribe('s1', 'workspace', 'a.txt', () => told.push('s1'));
    await subscriptions.subscribe('s2', 'workspace', './a.txt', () => told.push('s2'));
    await subscriptions.subscribe('s2', 'workspace', 'src', () => told.push('s2 src'));
    expect(watcher.size).toBe(2);
    watcher.changed(at('a.txt'));
    expect(told).toEqual(['s1', 's2']);
    subscriptions.unsubscribe('s1', 'workspace', 'a.txt');
    watcher.changed(at('a.txt'));
    expect(told).toEqual(['s1', 's2', 's2']);
    subscriptions.dropSession('s2');
    await Promise.resolve();
    expect(watcher.size).toBe(0);
    watcher.changed(at('a.txt'));
    watcher.changed(at('src'));
    expect(told).toHaveLength(3);
  });

  it('a session subscribing again to the same entry is told through its latest listener only', async () => {
    const { watcher, subscriptions, at } = world();
    const told: string[] = [];
    await subscriptions.subscribe('s', 'workspace', 'a.txt', () => told.push('old'));
    await subscriptions.subscribe('s', 'workspace', 'a.txt', () => told.push('new'));
    watcher.changed(at('a.txt'));
    expect(told).toEqual(['new']);
    expect(subscriptions.countOf('s')).toBe(1);
    expect(watcher.size).toBe(1);
  });

  it('refuses like reading: missing, outside, through an outside link, a root without read_file', async () => {
    const { watcher, subscriptions } = world();
    expect((await domainError(subscriptions.subscribe('s', 'workspace', 'missing.txt', () => undefined))).code).toBe('NOT_FOUND');
    expect((await domainError(subscriptions.subscribe('s', 'workspace', '../outside/secret.txt', () => undefined))).code).toBe('ACCESS_DENIED');
    expect((await domainError(subscriptions.subscribe('s', 'workspace', 'out', () => undefined))).code).toBe('ACCESS_DENIED');
    expect((await domainError(subscriptions.subscribe('s', 'lister', '.', () => undefined))).code).toBe('TOOL_NOT_ALLOWED');
    expect(subscriptions.countOf('s')).toBe(0);
    expect(watcher.size).toBe(0);
  });

  it('holds at most max_per_session per session, and a flood of subscribe/unsubscribe leaves no watch', async () => {
    const { watcher, subscriptions } = world(1);
    await subscriptions.subscribe('s', 'workspace', 'a.txt', () => undefined);
    await subscriptions.subscribe('s', 'workspace', 'a.txt', () => undefined);
    const error = await domainError(subscriptions.subscribe('s', 'workspace', 'src', () => undefined));
    expect(error.toClientText()).toBe(
      'INVALID_ARGUMENT: too many subscriptions: this session holds 1, the most subscriptions.max_per_session allows; unsubscribe from some first',
    );
    subscriptions.unsubscribe('s', 'workspace', 'a.txt');
    for (let i = 0; i < 1000; i += 1) {
      await subscriptions.subscribe('s', 'workspace', i % 2 === 0 ? 'a.txt' : 'src', () => undefined);
      subscriptions.unsubscribe('s', 'workspace', i % 2 === 0 ? 'a.txt' : 'src');
    }
    await Promise.resolve();
    expect(watcher.size).toBe(0);
    expect(subscriptions.countOf('s')).toBe(0);
  });

  describe('changes made through this server (the change feed)', () => {
    it('tells the subscribers of the entry and of its folder, each once per change, with no watcher event', async () => {
      const { subscriptions, tools } = world();
      const told: string[] = [];
      await subscriptions.subscribe('s1', 'workspace', 'src/b.txt', () => told.push('s1 file'));
      await subscriptions.subscribe('s1', 'workspace', 'src', () => told.push('s1 folder'));
      await subscriptions.subscribe('s2', 'workspace', 'src', () => told.push('s2 folder'));
      await subscriptions.subscribe('s3', 'workspace', 'a.txt', () => told.push('s3 other file'));
      await subscriptions.subscribe('s4', 'workspace', '.', () => told.push('s4 root'));
      await tools.writeFile.execute({ root: 'workspace', path: 'src/b.txt', content: 'b2' });
      expect(told.sort()).toEqual(['s1 file', 's1 folder', 's2 folder']);
      told.length = 0;
      await tools.writeFile.execute({ root: 'workspace', path: 'src/new.ts', content: '' });
      expect(told.sort()).toEqual(['s1 folder', 's2 folder']);
    });

    it('a removed or moved folder tells the subscribers of everything below it; a move tells both folders', async () => {
      const { fs, subscriptions, tools } = world();
      fs.seedFile('/ws/src/deep/c.txt', 'c');
      fs.seedDirectory('/ws/dest');
      const told: string[] = [];
      await subscriptions.subscribe('s', 'workspace', 'src/deep/c.txt', () => told.push('c'));
      await subscriptions.subscribe('s', 'workspace', 'dest', () => told.push('dest'));
      await subscriptions.subscribe('s', 'workspace', '.', () => told.push('root'));
      await tools.move.execute({ source_root: 'workspace', source_path: 'src', dest_root: 'workspace', dest_path: 'dest/src' });
      expect(told.sort()).toEqual(['c', 'dest', 'root']);
      told.length = 0;
      await subscriptions.subscribe('t', 'workspace', 'dest/src/b.txt', () => told.push('b'));
      await tools.removeFolder.execute({ root: 'workspace', path: 'dest' });
      expect(told.sort()).toEqual(['b', 'dest', 'root']);
    });

    it('Security: a change of a root this server does not serve, or of another entry, tells nobody; unsubscribed sessions hear nothing', async () => {
      const { feed, subscriptions, workspaceKey } = world();
      const told: string[] = [];
      await subscriptions.subscribe('s', 'workspace', 'a.txt', () => told.push('s'));
      await subscriptions.subscribe('gone', 'workspace', 'a.txt', () => told.push('gone'));
      subscriptions.unsubscribe('gone', 'workspace', 'a.txt');
      feed.publish({ rootKey: '0123456789abcdef', paths: [['a.txt']] });
      feed.publish({ rootKey: workspaceKey, paths: [['src', 'a.txt']] });
      feed.publish({ rootKey: workspaceKey, paths: [['a.txt.bak']] });
      expect(told).toEqual([]);
      feed.publish({ rootKey: workspaceKey, paths: [['a.txt']] });
      expect(told).toEqual(['s']);
      subscriptions.dropSession('s');
      feed.publish({ rootKey: workspaceKey, paths: [['a.txt']] });
      expect(told).toEqual(['s']);
    });
  });
});

describe('Subscriptions of a root that stops being served (issue 32)', () => {
  it('a client that stops sharing the folder: no more notifications for it, its watch closed; shared again, a new subscription works', async () => {
    const fs = new InMemoryFileSystem();
    fs.seedFile('/ws/a.txt', 'a');
    const workspace = makeRoot('workspace', '/ws');
    let shared: readonly Root[] = [workspace];
    const access = new RootAccess(new PathPolicy({ current: () => shared }), toolPolicy());
    const watcher = new InMemoryFileWatcher(fs);
    const keys = new RootKeys(new NodeContentHasher());
    const feed = new InProcessChangeFeed();
    const subscriptions = new Subscriptions(access, fs, watcher, 256, keys, feed, new WatchBudget({ server: 1000, perPrincipal: 1000 }));
    const told: string[] = [];
    await subscriptions.subscribe('s', 'workspace', 'a.txt', () => told.push('a'));
    const at = { root: workspace, segments: ['a.txt'] };
    watcher.changed(at);
    expect(told).toEqual(['a']);

    shared = [];
    watcher.changed(at);
    feed.publish({ rootKey: keys.of(workspace), paths: [['a.txt']] });
    expect(told).toEqual(['a']);
    await Promise.resolve();
    expect(watcher.size).toBe(0);
    expect(subscriptions.countOf('s')).toBe(0);

    shared = [workspace];
    await subscriptions.subscribe('s', 'workspace', 'a.txt', () => told.push('again'));
    watcher.changed(at);
    expect(told).toEqual(['a', 'again']);
  });
});
