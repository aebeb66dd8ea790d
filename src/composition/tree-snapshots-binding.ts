import { readOsWatchLimit } from '../adapters/outbound/watch/os-watch-limit.js';
import type { AppConfig } from '../config/app-config.js';
import type { RootKeys } from '../domain/changes/root-keys.js';
import type { ChangeFeed } from '../domain/ports/change-feed.port.js';
import type { FileSystemPort } from '../domain/ports/file-system.port.js';
import type { FileWatcher } from '../domain/ports/file-watcher.port.js';
import type { IgnoreRuleCache } from '../domain/search/ignore-rule-cache.js';
import { TreeSnapshots } from '../domain/search/tree-snapshots.js';
import type { Settings } from '../domain/settings.js';
import { watchLimitsOf } from '../domain/watch-budget.js';

/** Entries a root must hold for its walk snapshot to be kept: a smaller tree walks in a few milliseconds. */
const MIN_SNAPSHOT_ENTRIES = 2000;
/**
 * Entries one root's snapshot may hold (a stat each, some 60 bytes: 57 MiB for the 1M-file tree of
 * 10,000 folders, 87 MiB at this bound): a larger tree walks.
 */
const MAX_SNAPSHOT_ENTRIES = 1_500_000;

/**
 * The walk snapshots grep and glob answer from (issue 31.2), on when the search index is. Their tree
 * watches take at most half the server's watch budget (limits.watches, derived from the OS limit),
 * so subscriptions keep the other half.
 */
export function treeSnapshotsOf(config: AppConfig) {
  return (fs: FileSystemPort, watcher: FileWatcher, settings: Settings, ignoreCache: IgnoreRuleCache, changes: ChangeFeed, keys: RootKeys): TreeSnapshots => {
    const maxDirectories = Math.max(Math.floor(watchLimitsOf(config.watches, readOsWatchLimit()).server / 2), 1);
    const mode = settings.search.index?.mode ?? 'off';
    const ignore = settings.search.ignore ?? 'gitignore';
    return new TreeSnapshots(fs, watcher, { mode, ignore, maxDirectories, minEntries: MIN_SNAPSHOT_ENTRIES, maxEntries: MAX_SNAPSHOT_ENTRIES }, ignoreCache, { changes, keyOf: (root) => keys.of(root) });
  };
}
