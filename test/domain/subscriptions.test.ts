import { InMemoryFileSystem } from '../../src/adapters/outbound/in-memory-file-system.js';
import { InMemoryFileWatcher } from '../../src/adapters/outbound/watch/in-memory-file-watcher.js';
import { Subscriptions } from '../../src/domain/subscriptions.js';
import { domainError, rootAccess } from '../support/domain.js';
import { makeRoot } from '../support/roots.js';

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
  const subscriptions = new Subscriptions(access, fs, watcher, maxPerSession);
  const at = (...segments: string[]) => ({ root: workspace, segments });
  return { fs, watcher, subscriptions, at };
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
});
