import type { RootKeys } from './changes/root-keys.js';
import { errors } from './errors.js';
import type { ChangeFeed, EntryChange } from './ports/change-feed.port.js';
import type { FileSystemPort } from './ports/file-system.port.js';
import type { FileWatcher, Watch } from './ports/file-watcher.port.js';
import { displayPath, type Root, type RootPath } from './roots.js';
import type { RootAccess } from './tools/root-access.js';
import { RESOURCE_TOOL } from './tools/read-resource.js';
import { LOCAL_OPERATOR } from './principal.js';
import { watchedFolders, type WatchBudget } from './watch-budget.js';

/** Told when the subscribed entry changed. */
export type ChangeListener = () => void;

/** One watch shared by every session subscribed to the same entry; closed when the last one goes. */
interface SharedWatch {
  readonly root: Root;
  readonly ready: Promise<Watch>;
  readonly listeners: Map<string, ChangeListener>;
  /** The folders its watch occupies, claimed from the budget once per subscribed session. */
  readonly folders: readonly string[];
}

/**
 * resources/subscribe as the domain sees it (issue 18): a session subscribes to a file or directory
 * of a root it may read (read_file, as reading the resource needs), refused with the same errors as
 * reading it (outside the root, through a link leading outside, missing). Subscriptions are keyed
 * by session and by the entry's key (its canonical path: `./a`, `%2e/a` and `b/../a` are one
 * subscription); each session holds at most `maxPerSession`, and each subscription claims the
 * folders its watch occupies from the WatchBudget of the session's principal (issue 33).
 *
 * A subscriber hears of a change two ways, both through the same listener (so the MCP adapter's
 * coalescing sees one stream): the watcher (the operating system: changes by anyone, where it
 * reports them) and the ChangeFeed (changes made through this server, by this replica or another).
 * A change from the feed tells the entry's own subscribers, those of the folder it is in, and
 * those of anything below it (a removed or moved folder takes its contents with it).
 * Security: a change is looked up by its root key among the entries subscribed here, so a change
 * of a root this replica does not serve matches nothing; it never carries a host path. A root no
 * longer served (a client stopped sharing the folder) tells nothing more: the first change heard
 * after it went drops its subscriptions and their watch.
 */
export class Subscriptions {
  private readonly watches = new Map<string, SharedWatch>();
  private readonly sessions = new Map<string, Set<string>>();
  /** The principal each session subscribes as (its watches are charged to it). */
  private readonly principals = new Map<string, string>();

  constructor(
    private readonly access: RootAccess,
    private readonly fs: FileSystemPort,
    private readonly watcher: FileWatcher,
    private readonly maxPerSession: number,
    private readonly keys: RootKeys,
    feed: ChangeFeed,
    private readonly budget: WatchBudget,
  ) {
    feed.subscribe((change) => this.changed(change));
  }

  /** Subscribes the session (as `principal`); answers the entry's key, the same for every spelling of its path. */
  async subscribe(sessionId: string, rootName: string, rawPath: string, listener: ChangeListener, principal = LOCAL_OPERATOR): Promise<string> {
    const target = this.access.path(RESOURCE_TOOL, rootName, rawPath);
    const entry = await this.fs.stat(target, { followSymlinks: true });
    if (!entry) throw errors.notFound('path', target.root.name, displayPath(target));
    const key = this.keyOf(target);
    const held = this.sessions.get(sessionId) ?? new Set<string>();
    if (held.has(key)) {
      // Subscribed again (e.g. through a session's rebuilt server): the latest listener is the one told.
      this.watches.get(key)?.listeners.set(sessionId, listener);
      return key;
    }
    if (held.size >= this.maxPerSession) {
      throw errors.invalidArgument(
        `too many subscriptions: this session holds ${held.size}, the most subscriptions.max_per_session allows; unsubscribe from some first`,
      );
    }
    const owner = this.principals.get(sessionId) ?? principal;
    const kind = entry.kind === 'directory' ? 'directory' : 'file';
    let shared = this.watches.get(key);
    const folders = shared?.folders ?? watchedFolders(this.keys.of(target.root), target.segments, kind);
    this.budget.claim(owner, folders, { root: target.root.name, path: displayPath(target) });
    held.add(key);
    this.sessions.set(sessionId, held);
    this.principals.set(sessionId, owner);
    if (!shared) {
      const listeners = new Map<string, ChangeListener>();
      const ready = this.watcher.watch(target, kind, () => this.tell(key));
      shared = { root: target.root, ready, listeners, folders };
      this.watches.set(key, shared);
    }
    shared.listeners.set(sessionId, listener);
    try {
      await shared.ready;
    } catch (error) {
      this.release(sessionId, key);
      throw error;
    }
    return key;
  }

  /** Stops the session's subscription to the entry (nothing happens when it has none); answers the entry's key. */
  unsubscribe(sessionId: string, rootName: string, rawPath: string): string {
    const key = this.keyOf(this.access.path(RESOURCE_TOOL, rootName, rawPath));
    this.release(sessionId, key);
    return key;
  }

  /** A change made through this server (here or on another replica): every entry it touched is told once. */
  changed(change: EntryChange): void {
    if (this.watches.size === 0) return;
    const prefix = `${change.rootKey}\0`;
    const touched = new Set<string>();
    for (const segments of change.paths) {
      const entry = segments.join('/');
      const folder = segments.slice(0, -1).join('/');
      for (const key of this.watches.keys()) {
        if (!key.startsWith(prefix)) continue;
        const watched = key.slice(prefix.length);
        const below = entry === '' ? watched !== '' : watched.startsWith(`${entry}/`);
        if (watched === entry || below || (segments.length > 0 && watched === folder)) touched.add(key);
      }
    }
    for (const key of touched) this.tell(key);
  }

  /** The session ended: every subscription of it goes. */
  dropSession(sessionId: string): void {
    for (const key of [...(this.sessions.get(sessionId) ?? [])]) this.release(sessionId, key);
  }

  /** Subscriptions the session holds. */
  countOf(sessionId: string): number {
    return this.sessions.get(sessionId)?.size ?? 0;
  }

  private tell(key: string): void {
    const shared = this.watches.get(key);
    if (!shared) return;
    if (this.access.serves(shared.root)) {
      for (const notify of [...shared.listeners.values()]) notify();
      return;
    }
    for (const sessionId of [...shared.listeners.keys()]) this.release(sessionId, key);
  }

  private release(sessionId: string, key: string): void {
    const held = this.sessions.get(sessionId);
    if (!held?.delete(key)) return;
    const principal = this.principals.get(sessionId) ?? LOCAL_OPERATOR;
    if (held.size === 0) {
      this.sessions.delete(sessionId);
      this.principals.delete(sessionId);
    }
    const shared = this.watches.get(key);
    if (!shared) return;
    this.budget.release(principal, shared.folders);
    shared.listeners.delete(sessionId);
    if (shared.listeners.size > 0) return;
    this.watches.delete(key);
    shared.ready.then(
      (watch) => watch.close(),
      () => undefined,
    );
  }

  /** An entry's identity: its root's key (its directory, as every replica names it) and the in-root path. */
  private keyOf(path: RootPath): string {
    return `${this.keys.of(path.root)}\0${path.segments.join('/')}`;
  }
}
