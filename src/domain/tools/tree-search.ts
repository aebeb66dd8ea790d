import type { Clock } from '../ports/clock.port.js';
import type { FileSystemPort } from '../ports/file-system.port.js';
import type { TreeScanOptions } from '../ports/tree-scan-types.js';
import type { RegexEngine } from '../ports/regex-engine.port.js';
import { IgnoreRuleCache } from '../search/ignore-rule-cache.js';
import type { SearchIndexes } from '../search/search-indexes.js';
import type { IgnoreMode } from '../search/ignore-rules.js';
import type { ReplayBatch, ReplayJudges } from '../search/snapshot-replay.js';
import type { TreeSnapshots } from '../search/tree-snapshots.js';
import type { RootPath } from '../roots.js';
import type { Settings } from '../settings.js';
import type { RootAccess } from './root-access.js';

/** What grep and glob are built from: they walk a tree of a root under the search limits. */
export abstract class TreeSearch {
  constructor(
    protected readonly fs: FileSystemPort,
    protected readonly clock: Clock,
    protected readonly regex: RegexEngine,
    protected readonly settings: Settings,
    protected readonly access: RootAccess,
    /** Compiled ignore files; the composition root shares one (with the logger) between the tools. */
    protected readonly ignoreCache = new IgnoreRuleCache(),
    /**
     * Per-root trigram indexes grep may narrow its reads with (issue 31.2); none: every grep scans. A glob
     * only tells them it runs: their background work (a build, a save) waits while any search runs.
     */
    protected readonly indexes?: SearchIndexes,
    /** Per-root snapshots of the walk, kept exact by a tree watch (issue 31.2); none: every search walks. */
    protected readonly snapshots?: TreeSnapshots,
  ) {}

  /** Runs a search: the indexes' background work waits meanwhile (a save's encode beside a glob took a third of its time). */
  protected async asSearch<T>(search: () => Promise<T>): Promise<T> {
    const ended = this.indexes?.searchStarted();
    try {
      return await search();
    } finally {
      ended?.();
    }
  }

  /** The walk of `start`, answered from the root's snapshot when one is exact (`fromSnapshot`), else by the port. */
  protected async walk(start: RootPath, options: TreeScanOptions, ignore: IgnoreMode, fromSnapshot = true, judges?: ReplayJudges): Promise<AsyncIterable<ReplayBatch>> {
    if (this.snapshots === undefined || !fromSnapshot) return this.fs.scanTree(start, options);
    return this.snapshots.scanTree(start, options, ignore, judges);
  }
}
