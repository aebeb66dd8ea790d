import type { ChangeFeed } from '../ports/change-feed.port.js';
import type { FileSystemPort } from '../ports/file-system.port.js';
import type { TreeScanOptions } from '../ports/tree-scan-types.js';
import type { FileWatcher, TreeChangeListener, Watch } from '../ports/file-watcher.port.js';
import type { Root, RootPath } from '../roots.js';
import type { IgnoreRuleCache } from './ignore-rule-cache.js';
import { type IgnoreMode, ignoreRulesFor } from './ignore-rules.js';
import { applyTreeChanges } from './snapshot-changes.js';
import { type ReplayBatch, type ReplayJudges, replayScan } from './snapshot-replay.js';
import { WalkSnapshot } from './walk-snapshot.js';

export interface TreeSnapshotSettings {
  /** auto: a root large enough keeps a snapshot of its walk; off: every grep and glob walks. */
  readonly mode: 'auto' | 'off';
  /** The ignore rules the snapshot is walked under; a call with others walks. */
  readonly ignore: IgnoreMode;
  /** Directories one root's tree watch may hold (part of the OS watch budget); a root with more is walked. */
  readonly maxDirectories: number;
  /** Entries a root must hold for its snapshot to be kept: below it a walk is about as fast. */
  readonly minEntries: number;
  /** Entries a snapshot may hold (memory: a stat each); a larger root walks. */
  readonly maxEntries: number;
}

/** What the ignore verdicts a snapshot keeps per entry are valid for: a call's start and the rules above it (IgnoreRules.key). */
function verdictKey(start: RootPath, rulesKey: readonly unknown[]): readonly unknown[] {
  return [start.segments.join('/'), ...rulesKey];
}

/** The changes heard since a snapshot's walk began: paths, or that the watch cannot vouch. */
class ChangeTracker implements TreeChangeListener {
  readonly dirty = new Set<string>();
  lost = false;

  changed(path: string): void {
    this.dirty.add(path);
  }

  unknown(): void {
    this.lost = true;
  }
}

interface Ready {
  readonly state: 'ready';
  readonly snapshot: WalkSnapshot;
  readonly tracker: ChangeTracker;
  readonly watch: Watch;
  /** The changes being applied now: a second call waits for them rather than read a half-updated snapshot. */
  applying: Promise<boolean>;
  /** A new snapshot is being built to replace this one (which serves meanwhile). */
  rebuilding: boolean;
}

/** Builds in a row that end with the watch unable to vouch before a root is left to walks. */
const MAX_LOST_BUILDS = 3;

type RootState = { readonly state: 'building' } | { readonly state: 'off' } | Ready;

/**
 * Issue 31.2: per root, a snapshot of the walk grep and glob make, kept exact by a tree watch, so a
 * repeated search does not walk. Built in the background (watch first, then the walk, so nothing
 * that changes during the walk goes unheard). Before a search trusts it, one poll phase of the event
 * loop runs (events the kernel queued before the call are delivered then) and every path heard since
 * is looked at again. A rule file changed, or a watch that cannot vouch (an error, the watch budget,
 * an event without a name), and the search walks as it would without one while a new snapshot builds.
 */
export class TreeSnapshots {
  private readonly roots = new Map<string, RootState>();
  private readonly rootKeys = new Map<string, string>();
  private readonly lostBuilds = new Map<string, number>();
  /** The build running per root, if any. */
  private readonly builds = new Map<string, Promise<void>>();
  private readonly keyOf?: (root: Root) => string;
  private closed = false;
  /** Scans answered from a snapshot and by the port, for tests and the bench. */
  readonly answered = { fromSnapshot: 0, byWalk: 0 };

  constructor(
    private readonly fs: FileSystemPort,
    private readonly watcher: FileWatcher,
    private readonly settings: TreeSnapshotSettings,
    private readonly ignoreCache: IgnoreRuleCache,
    feed?: { readonly changes: ChangeFeed; readonly keyOf: (root: Root) => string },
  ) {
    // Writes through this server (or a replica) are heard at once, before the kernel's events are.
    this.keyOf = feed?.keyOf;
    feed?.changes.subscribe((change) => {
      const known = this.rootKeys.get(change.rootKey);
      const state = known === undefined ? undefined : this.roots.get(known);
      if (state?.state !== 'ready') return;
      for (const path of change.paths) {
        if (path.length === 0) state.tracker.unknown();
        else state.tracker.changed(path.join('/'));
      }
    });
  }

  /**
   * scanTree of `start` as the port would answer it: from the root's snapshot when it is ready and
   * exact for this ignore mode, from the port otherwise (and a snapshot starts building).
   */
  async scanTree(start: RootPath, options: TreeScanOptions, ignore: IgnoreMode, judges: ReplayJudges = {}): Promise<AsyncIterable<ReplayBatch>> {
    const found = options.includeWorkNames || ignore !== this.settings.ignore ? undefined : await this.current(start);
    if (found === undefined) {
      this.answered.byWalk += 1;
      return this.fs.scanTree(start, options);
    }
    this.answered.fromSnapshot += 1;
    // The ignore verdicts kept per entry hold for calls from the same start under the same rules above it.
    const kept = judges.ignore && { ...judges.ignore, key: verdictKey(start, judges.ignore.key) };
    return replayScan(this.fs, start, found.snapshot, found.directory, options, { ...judges, ignore: kept });
  }

  /** Starts the root's snapshot if it has none and resolves once no build of it runs. */
  async settled(root: Root): Promise<void> {
    if (this.settings.mode === 'off') return;
    if (!this.roots.has(root.name)) this.rebuild(root);
    while (this.builds.has(root.name)) await this.builds.get(root.name);
  }

  close(): void {
    this.closed = true;
    for (const state of this.roots.values()) if (state.state === 'ready') state.watch.close();
    this.roots.clear();
  }

  private async current(start: RootPath) {
    if (this.settings.mode === 'off' || this.closed) return undefined;
    const root = start.root;
    const known = this.roots.get(root.name);
    if (known === undefined) {
      this.rebuild(root);
      return undefined;
    }
    if (known.state !== 'ready') return undefined;
    // Events the kernel queued before this call are delivered in the event loop's poll phase: let one run.
    await new Promise<void>((resolve) => setImmediate(resolve));
    await new Promise<void>((resolve) => setImmediate(resolve));
    const exact = (known.applying = known.applying.then(() => this.bringUpToDate(root, known)));
    if (!(await exact) || this.roots.get(root.name) !== known) return undefined;
    const directory = known.snapshot.directoryAt(start.segments);
    return directory && { snapshot: known.snapshot, directory };
  }

  /** Applies the changes heard; false when only a walk can tell (the snapshot is dropped and built again). */
  private async bringUpToDate(root: Root, known: Ready): Promise<boolean> {
    if (this.roots.get(root.name) !== known) return false;
    if (!known.tracker.lost && known.tracker.dirty.size > 0) {
      const paths = [...known.tracker.dirty];
      known.tracker.dirty.clear();
      const outcome = await applyTreeChanges(this.fs, root, known.snapshot, paths).catch(() => 'rewalk' as const);
      if (outcome === 'rewalk') known.tracker.unknown();
      // A new directory is scanned live by each search until a new snapshot holds it.
      else if (outcome === 'partial') this.rebuild(root, known);
    }
    if (!known.tracker.lost) return true;
    this.rebuild(root);
    return false;
  }

  /** Builds the root's snapshot in the background; `keep` serves meanwhile (when still exact). */
  private rebuild(root: Root, keep?: Ready): void {
    if (keep?.rebuilding) return;
    if (keep !== undefined) keep.rebuilding = true;
    else {
      this.drop(root);
      this.roots.set(root.name, { state: 'building' });
    }
    if (this.keyOf !== undefined) this.rootKeys.set(this.keyOf(root), root.name);
    const done = this.build(root).then(
      (state) => {
        const replaced = this.roots.get(root.name);
        if (this.closed || (keep !== undefined && replaced !== keep)) return state?.state === 'ready' ? state.watch.close() : undefined;
        if (replaced?.state === 'ready') replaced.watch.close();
        if (state !== undefined) this.roots.set(root.name, state);
        // The watch lost events while the walk ran: the next search tries again, a few times at most.
        else if ((this.lostBuilds.get(root.name) ?? 0) >= MAX_LOST_BUILDS) this.roots.set(root.name, { state: 'off' });
        else {
          this.lostBuilds.set(root.name, (this.lostBuilds.get(root.name) ?? 0) + 1);
          this.roots.delete(root.name);
        }
      },
      () => {
        this.roots.set(root.name, { state: 'off' });
      },
    );
    this.builds.set(root.name, done);
    void done.finally(() => {
      if (this.builds.get(root.name) === done) this.builds.delete(root.name);
    });
  }

  private drop(root: Root): void {
    const known = this.roots.get(root.name);
    if (known?.state === 'ready') known.watch.close();
    this.roots.delete(root.name);
  }

  /** The root's new state; undefined when the watch could not vouch for the walk. */
  private async build(root: Root): Promise<RootState | undefined> {
    const top: RootPath = { root, segments: [] };
    const between = () => new Promise<void>((resolve) => setImmediate(resolve));
    // The directories to watch come from a walk of directories alone; the watch is set before the
    // full walk, so a change made while it runs is heard.
    const directories = [''];
    const listing = await ignoreRulesFor(this.fs, top, this.settings.ignore, this.ignoreCache);
    const onlyDirectories = { select: (_path: string, kind: string) => kind === 'directory', ...listing?.scanOptions() };
    for await (const batch of this.fs.scanTree(top, onlyDirectories)) {
      for (const entry of batch.selected) directories.push(entry.relativePath);
      if (directories.length > this.settings.maxDirectories) return { state: 'off' };
      await between();
    }
    const tracker = new ChangeTracker();
    const watch = await this.watcher.watchTree(root, directories, tracker);
    try {
      const rules = await ignoreRulesFor(this.fs, top, this.settings.ignore, this.ignoreCache);
      const snapshot = await WalkSnapshot.build(this.fs, top, rules?.scanOptions() ?? {}, between, this.settings.maxEntries, rules && verdictKey(top, rules.key));
      const kept = snapshot !== undefined && snapshot.size >= this.settings.minEntries;
      if (tracker.lost || !kept) watch.close();
      if (tracker.lost) return undefined;
      if (!kept) return { state: 'off' };
      this.lostBuilds.delete(root.name);
      return { state: 'ready', snapshot, tracker, watch, applying: Promise.resolve(true), rebuilding: false };
    } catch (error) {
      watch.close();
      throw error;
    }
  }
}
