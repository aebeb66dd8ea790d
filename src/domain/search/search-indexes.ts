import type { EntryStat, FileSystemPort } from '../ports/file-system.port.js';
import type { ScannedEntry } from '../ports/tree-scan-types.js';
import type { Root, RootPath } from '../roots.js';
import { looksBinary, readRange } from '../tools/file-text.js';
import { stampOf } from './index-freshness.js';
import type { IgnoreRuleCache } from './ignore-rule-cache.js';
import { type IgnoreMode, ignoreRulesFor } from './ignore-rules.js';
import type { IndexPersistence } from './index-persistence.js';
import { TrigramIndex } from './trigram-index.js';

export interface SearchIndexSettings {
  /** auto: a root gets an index once its text passes minRootBytes; off: grep always scans. */
  readonly mode: 'auto' | 'off';
  /** Bound on one root's index (postings, keys, file list); a root past it is indexed in part. */
  readonly maxBytes: number;
  /** Text a root must hold for auto to keep its index: below it a scan is about as fast. */
  readonly minRootBytes: number;
  /** Files larger than this are left out (grep reads them every time, as today). */
  readonly maxFileBytes: number;
  /** The ignore rules the build walks under (grep's default); files they hide are read when a call asks for them. */
  readonly ignore: IgnoreMode;
}

/** Files up to this size come read by the build's walk; a larger one is opened on its own. */
const READ_AHEAD_MAX_BYTES = 256 * 1024;
/** A pause in a client's searches this long lets a save go on. */
const QUIET_MS = 250;
/** How long the build waits before looking again while a search is running. */
const YIELD_MS = 5;

type RootState = { readonly state: 'building'; readonly done: Promise<void> } | { readonly state: 'ready'; readonly index: TrigramIndex } | { readonly state: 'small' | 'failed' };

/**
 * One trigram index per root, built in the background the first time a search asks for it, at low
 * priority: between two batches of its walk it waits while any search is running. An index is only
 * ever a hint: grep walks the tree as a scan does and reads every file the index cannot vouch for
 * (see IndexedLookup), so a partial, building or stale index costs time, never a result.
 */
export class SearchIndexes {
  private readonly roots = new Map<string, RootState>();
  /** Paths a grep read because the index could not vouch for them, to index again, per root. */
  private readonly stale = new Map<string, { readonly queue: Set<string>; readonly done: Promise<void> }>();
  private searching = 0;
  /** When the last search ended (performance.now()). */
  private lastSearchEnded = -Infinity;
  private closed = false;

  constructor(
    private readonly fs: FileSystemPort,
    private readonly settings: SearchIndexSettings,
    private readonly ignoreCache: IgnoreRuleCache,
    /** Where indexes are kept between runs; none: each run builds its own. */
    private readonly persistence?: IndexPersistence,
    /**
     * What a build waits for before its walk: the root's walk snapshot (TreeSnapshots.settled), built
     * once the searches running end. Built after the index (its first indexed search started it), it
     * walked while the index was held, and so did every grep until it was ready: a 1M-file root took
     * the server from 285 to 425 MiB. Built first, it is ready when the index is.
     */
    private readonly walkFirst?: (root: Root) => Promise<void>,
  ) {}

  /** The root's index when built; starts building it otherwise (auto mode). */
  ready(root: Root): TrigramIndex | undefined {
    if (this.settings.mode === 'off' || this.closed) return undefined;
    const known = this.roots.get(root.name);
    if (known === undefined) {
      const done = this.loadOrBuild(root).catch(() => {
        // A failed build leaves the root to scans; the next start tries again.
        this.roots.set(root.name, { state: 'failed' });
      });
      this.roots.set(root.name, { state: 'building', done });
      return undefined;
    }
    return known.state === 'ready' ? known.index : undefined;
  }

  /** Resolves once the root's build and refresh (if any) have ended. */
  async settled(root: Root): Promise<void> {
    const known = this.roots.get(root.name);
    if (known?.state === 'building') await known.done;
    await this.stale.get(root.name)?.done;
  }

  /** Marks a search running until the returned function is called: builds wait meanwhile. */
  searchStarted(): () => void {
    this.searching += 1;
    let ended = false;
    return () => {
      if (!ended) {
        this.searching -= 1;
        this.lastSearchEnded = performance.now();
      }
      ended = true;
    };
  }

  /**
   * Indexes these root-relative paths again in the background (the files a grep found new or moved),
   * so the next grep need not read them; one gone or no longer a regular file is dropped.
   */
  refresh(root: Root, paths: Iterable<string>): void {
    const known = this.roots.get(root.name);
    if (known?.state !== 'ready') return;
    const running = this.stale.get(root.name);
    const queue = running?.queue ?? new Set<string>();
    for (const path of paths) queue.add(path);
    if (running !== undefined || queue.size === 0) return;
    const done = this.drain(root, known.index, queue)
      .then(() => this.saveLater(root, known.index))
      .catch(() => undefined)
      .finally(() => this.stale.delete(root.name));
    this.stale.set(root.name, { queue, done });
  }

  /** Stops every build at its next batch (shutdown). */
  close(): void {
    this.closed = true;
    this.persistence?.close();
  }

  /** The stored index when there is a usable one, else a build. */
  private async loadOrBuild(root: Root): Promise<void> {
    if (this.persistence !== undefined) {
      if (await this.loadStored(root, this.persistence)) return;
    }
    await this.build(root);
    const built = this.roots.get(root.name);
    if (built?.state === 'ready') this.saveLater(root, built.index);
  }

  private async loadStored(root: Root, persistence: IndexPersistence): Promise<boolean> {
    // Decoding took 2 s for a 12 MB index (20k files of 200 MB): a first search that waited for it
    // took 2.7x a scan. It scans instead, and the load takes only the time searches leave.
    const index = await persistence.load(root, this.settings.maxBytes, () => this.yieldToSearches());
    if (index === undefined || this.closed) return false;
    this.roots.set(root.name, { state: 'ready', index });
    return true;
  }

  private saveLater(root: Root, index: TrigramIndex): void {
    if (!this.closed) this.persistence?.saveLater(root, index, () => this.quiet());
  }

  private async build(root: Root): Promise<void> {
    const top: RootPath = { root, segments: [] };
    const index = new TrigramIndex(this.settings.maxBytes);
    let textBytes = 0;
    // The first search's own walk runs alone, then the snapshot's, then this one.
    await this.yieldToSearches();
    if (this.walkFirst !== undefined) {
      // A snapshot that could not be built leaves the root to walks; the index is built all the same.
      await this.walkFirst(root).catch(() => undefined);
      if (this.closed) return;
      await this.yieldToSearches();
    }
    const rules = await ignoreRulesFor(this.fs, top, this.settings.ignore, this.ignoreCache);
    const options = { select: (_path: string, kind: string) => kind === 'file', readContents: { maxBytes: READ_AHEAD_MAX_BYTES }, ...rules?.scanOptions() };
    for await (const batch of this.fs.scanTree(top, options)) {
      for (const entry of batch.selected) {
        // A search that started within the batch does not wait for its end: a large file is read and
        // cut into trigrams on the main thread, the very time the search needs.
        if (this.searching > 0) await this.yieldToSearches();
        if (this.closed) return;
        const read = entry.stat.kind === 'file' ? await this.contentsOf(top, entry) : undefined;
        if (read === undefined) continue;
        index.add(entry.relativePath, stampOf(read.stat), read.contents, looksBinary(read.contents));
        textBytes += read.contents.length;
      }
      if (this.closed) return;
      await this.yieldToSearches();
    }
    index.seal();
    this.roots.set(root.name, textBytes < this.settings.minRootBytes ? { state: 'small' } : { state: 'ready', index });
  }

  private async drain(root: Root, index: TrigramIndex, queue: Set<string>): Promise<void> {
    const top: RootPath = { root, segments: [] };
    for (const path of queue) {
      queue.delete(path);
      await this.yieldToSearches();
      if (this.closed) return;
      const stat = await this.fs.stat({ root, segments: path.split('/') }).catch(() => null);
      const read = stat?.kind === 'file' ? await this.contentsOf(top, { relativePath: path, stat }).catch(() => undefined) : undefined;
      // An encode under way must see the index it started with: wait for it, and change the index in the
      // same turn as the last look (no await between), so no encode can start in between.
      for (let encoding = this.persistence?.encoding(root.name); encoding !== undefined; encoding = this.persistence?.encoding(root.name)) await encoding;
      if (read === undefined) index.remove(path);
      else index.add(path, stampOf(read.stat), read.contents, looksBinary(read.contents));
    }
  }

  /**
   * The file's bytes with the stat taken before they were read (a write after it moves the stamp, so
   * the file is read again), or undefined to leave it out (too large, gone, replaced).
   */
  private async contentsOf(top: RootPath, entry: ScannedEntry): Promise<{ stat: EntryStat; contents: Uint8Array } | undefined> {
    if (entry.contents !== undefined) return { stat: entry.stat, contents: entry.contents };
    if (entry.stat.size > this.settings.maxFileBytes) return undefined;
    const path = { root: top.root, segments: entry.relativePath.split('/') };
    const file = await this.fs.openFile(path).catch(() => undefined);
    if (file === undefined) return undefined;
    try {
      // Another file there now (a link swapped in, renamed over): left out, so a search reads it.
      if (file.stat.inode !== entry.stat.inode || file.stat.size !== entry.stat.size) return undefined;
      return { stat: file.stat, contents: await readRange(file, 0, file.stat.size) };
    } finally {
      await file.close();
    }
  }

  /**
   * Resolves once no search has run for QUIET_MS: a save waits for a pause in a client's calls, not
   * only for the call running. Slices of a save between the calls of a burst of globs made each about
   * twice as slow for the save's two seconds.
   */
  private async quiet(): Promise<void> {
    for (;;) {
      await this.yieldToSearches();
      const left = this.lastSearchEnded + QUIET_MS - performance.now();
      if (left <= 0 || this.closed) return;
      await new Promise<void>((resolve) => setTimeout(resolve, left));
    }
  }

  private async yieldToSearches(): Promise<void> {
    do await new Promise<void>((resolve) => setTimeout(resolve, this.searching > 0 ? YIELD_MS : 0));
    while (this.searching > 0 && !this.closed);
  }
}
