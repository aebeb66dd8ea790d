import { ContainerModule } from 'inversify';
import { McpCompletionHandler } from '../../adapters/inbound/mcp/protocol/completions.js';
import { McpResourceHandler } from '../../adapters/inbound/mcp/protocol/resource-handler.js';
import { McpSubscriptionHandler } from '../../adapters/inbound/mcp/protocol/subscriptions.js';
import type { AppConfig } from '../../config/app-config.js';
import type { FileWatcher } from '../../domain/ports/file-watcher.port.js';
import type { ChangeFeed } from '../../domain/ports/change-feed.port.js';
import { RootKeys } from '../../domain/changes/root-keys.js';
import { Subscriptions } from '../../domain/subscriptions.js';
import { WatchBudget, watchLimitsOf } from '../../domain/watch-budget.js';
import { readOsWatchLimit } from '../../adapters/outbound/watch/os-watch-limit.js';
import type { FileSystemPort } from '../../domain/ports/file-system.port.js';
import type { Settings } from '../../domain/settings.js';
import { CompletePath } from '../../domain/tools/complete-path.js';
import { ReadFile } from '../../domain/tools/read-file.js';
import { ReadResource } from '../../domain/tools/read-resource.js';
import { RootAccess } from '../../domain/tools/root-access.js';
import { TOKENS } from '../tokens.js';

const DEFAULT_MAX_SUBSCRIPTIONS = 256;

/** Files as MCP resources: the use case over read_file's access and reader, and its MCP handler; completion of their template. */
export const resourcesModule = new ContainerModule(({ bind }) => {
  bind(ReadResource)
    .toResolvedValue(
      (access: RootAccess, files: FileSystemPort, readFile: ReadFile, settings: Settings) => new ReadResource(access, files, readFile, settings),
      [RootAccess, TOKENS.FileSystem, ReadFile, TOKENS.Settings],
    )
    .inSingletonScope();
  bind(McpResourceHandler).toSelf().inSingletonScope();
  bind(CompletePath)
    .toResolvedValue((access: RootAccess, files: FileSystemPort) => new CompletePath(access, files), [RootAccess, TOKENS.FileSystem])
    .inSingletonScope();
  bind(McpCompletionHandler).toSelf().inSingletonScope();
  // The OS limit is read once, at start-up: the budget is a share of it (limits.watches).
  bind(WatchBudget)
    .toResolvedValue((config: AppConfig) => new WatchBudget(watchLimitsOf(config.watches, readOsWatchLimit())), [TOKENS.Config])
    .inSingletonScope();
  bind(Subscriptions)
    .toResolvedValue(
      (access: RootAccess, files: FileSystemPort, watcher: FileWatcher, config: AppConfig, keys: RootKeys, feed: ChangeFeed, budget: WatchBudget) =>
        new Subscriptions(access, files, watcher, config.subscriptions?.maxPerSession ?? DEFAULT_MAX_SUBSCRIPTIONS, keys, feed, budget),
      [RootAccess, TOKENS.FileSystem, TOKENS.FileWatcher, TOKENS.Config, RootKeys, TOKENS.ChangeFeed, WatchBudget],
    )
    .inSingletonScope();
  bind(McpSubscriptionHandler).toSelf().inSingletonScope();
  bind(TOKENS.SessionEndListener).toService(McpSubscriptionHandler);
});
