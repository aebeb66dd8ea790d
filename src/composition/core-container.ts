import 'reflect-metadata';
import { Container } from 'inversify';
import { AsyncLocalPrincipalContext } from '../adapters/inbound/mcp/protocol/call-principal.js';
import { ClientRoots } from '../adapters/inbound/mcp/protocol/client-roots.js';
import { McpServerFactory } from '../adapters/inbound/mcp/protocol/server-factory.js';
import { RequestScopes } from '../adapters/inbound/mcp/protocol/request-scopes.js';
import { StateHandles } from '../adapters/inbound/mcp/protocol/state-handles.js';
import { SessionRegistry } from '../adapters/inbound/mcp/protocol/session-registry.js';
import { StdioServer } from '../adapters/inbound/mcp/transports/stdio-transport.js';
import { ModernListen } from '../adapters/inbound/mcp/transports/modern-listen.js';
import { AdmissionBudget } from '../adapters/inbound/mcp/transports/admission-budget.js';
import { ConfiguredRoots } from '../adapters/outbound/configured-roots.js';
import { NodeContentHasher } from '../adapters/outbound/node-content-hasher.js';
import { InMemorySessionState } from '../adapters/outbound/in-memory-session-state.js';
import type { SessionStateStore } from '../adapters/shared/session-state-store.port.js';
import { InProcessChangeFeed } from '../adapters/outbound/feed/in-process-change-feed.js';
import { Re2RegexEngine } from '../adapters/outbound/re2-regex-engine.js';
import { SystemClock } from '../adapters/outbound/system-clock.js';
import { WinstonLogger } from '../adapters/outbound/winston-logger.js';
import type { AppConfig } from '../config/app-config.js';
import { ElicitingConfirmation } from '../adapters/inbound/mcp/tool-calls/call-confirmation.js';
import { ConfirmingFileSystem } from '../domain/changes/confirming-file-system.js';
import { NotifyingFileSystem } from '../domain/changes/notifying-file-system.js';
import { RootKeys } from '../domain/changes/root-keys.js';
import { PathPolicy } from '../domain/path-policy.js';
import type { ChangeFeed } from '../domain/ports/change-feed.port.js';
import type { ContentHasher } from '../domain/ports/content-hasher.port.js';
import type { FileWatcher } from '../domain/ports/file-watcher.port.js';
import { chooseFileSystem, type FileSystemPair } from './file-system-binding.js';
import type { Clock } from '../domain/ports/clock.port.js';
import type { FileSystemPort } from '../domain/ports/file-system.port.js';
import type { Logger } from '../domain/ports/logger.port.js';
import { IgnoreRuleCache } from '../domain/search/ignore-rule-cache.js';
import { SearchIndexes } from '../domain/search/search-indexes.js';
import { treeSnapshotsOf } from './tree-snapshots-binding.js';
import { TreeSnapshots } from '../domain/search/tree-snapshots.js';
import { IndexPersistence, PERSISTENCE_DEFAULTS } from '../domain/search/index-persistence.js';
import { NodeIndexStore } from '../adapters/outbound/node-index-store.js';
import type { Settings } from '../domain/settings.js';
import { RootAccess } from '../domain/tools/root-access.js';
import { ToolPolicy } from '../domain/tool-policy.js';
import { bindJournal } from './journal-binding.js';
import type { RemoteAdapters } from './remote-adapters.js';
import type { RootsSource } from '../domain/ports/roots-source.port.js';
import { domainRootsOf, servedToolsets } from '../config/domain-roots.js';
import type { Root } from '../domain/roots.js';
import { requestLimitsOf } from '../config/schema.js';
import { toolFamilyModules } from './modules/index.js';
import { TOKENS } from './tokens.js';
import { TOOL_CATALOG } from '../adapters/inbound/mcp/tool-calls/spec-catalog.js';
import { catalogOf } from '../adapters/inbound/mcp/tool-calls/tool-registry.js';
import type { ToolSpec } from '../adapters/inbound/mcp/tool-calls/tool-spec.js';
import { TOOL_SPECS } from '../adapters/inbound/mcp/tool-calls/tool-specs.js';

/** Adapters a caller (a test, another deployment) may swap; each swap is one binding. */
export interface ContainerOverrides {
  readonly fileSystem?: FileSystemPort;
  readonly clock?: Clock;
  readonly logger?: Logger;
  /** The watcher over the real file system (default: inotify over the Node one, in memory over an override). */
  readonly fileWatcher?: (files: FileSystemPort) => FileWatcher;
  /** The tools served (default: every spec discovered in tools/); the domain's catalog is read from them. */
  readonly toolSpecs?: readonly ToolSpec[];
}

function sessionStoreOf(config: AppConfig, remote?: RemoteAdapters): (clock: Clock, logger: Logger) => SessionStateStore {
  if (config.sessionStoreUrl === '') return (clock) => new InMemorySessionState(config.sessions, clock);
  if (!remote) throw new Error('session_store.url is set but no remote session store was loaded');
  return (_clock, logger) => remote.sessionStore(config.sessionStoreUrl, config.sessions, logger);
}

function changeFeedOf(config: AppConfig, remote?: RemoteAdapters): (logger: Logger) => ChangeFeed {
  if (config.sessionStoreUrl === '' || !remote) return () => new InProcessChangeFeed();
  return (logger) => remote.changeFeed(config.sessionStoreUrl, logger);
}

/**
 * Everything a stdio server needs: the domain, the outbound adapters, the tool modules, the MCP
 * server factory and StdioServer. Nothing of the HTTP stack (Koa, auth, Prometheus, the SDK's HTTP
 * transport) is imported from here, so a stdio start-up never loads it; buildContainer adds it.
 * No metrics observer is bound: tool calls are logged, and only the HTTP server exposes /metrics.
 */
export function buildCoreContainer(
  config: AppConfig,
  overrides: ContainerOverrides = {},
  remote?: RemoteAdapters,
): Container {
  const container = new Container({ defaultScope: 'Singleton' });
  const specs = overrides.toolSpecs ?? TOOL_SPECS;
  const tools = overrides.toolSpecs ? catalogOf(specs) : TOOL_CATALOG;

  container.bind(TOKENS.Config).toConstantValue(config);
  container.bind(TOKENS.Settings).toConstantValue(config.settings);
  const principals = new AsyncLocalPrincipalContext();
  container.bind(TOKENS.PrincipalContext).toConstantValue(principals);
  if (config.clientRoots) {
    container.bind(ClientRoots).toSelf();
    container.bind(TOKENS.RootsSource).toService(ClientRoots);
  } else {
    container.bind(TOKENS.RootsSource).toConstantValue(new ConfiguredRoots(domainRootsOf(config.roots, tools, servedToolsets(config))));
  }
  container.bind(TOKENS.PathPolicy).toResolvedValue((roots: RootsSource) => new PathPolicy(roots, { principals, tools }), [TOKENS.RootsSource]);
  container.bind(TOKENS.ToolPolicy).toConstantValue(new ToolPolicy(tools));
  container
    .bind(RootAccess)
    .toResolvedValue((paths: PathPolicy, tools: ToolPolicy) => new RootAccess(paths, tools), [TOKENS.PathPolicy, TOKENS.ToolPolicy]);

  // Asking before what cannot be taken back (issue 30.3): on unless confirm.enabled is false.
  const confirmation = (config.confirm?.enabled ?? true) ? new ElicitingConfirmation((config.confirm?.timeoutSeconds ?? 120) * 1000) : undefined;
  if (confirmation) container.bind(TOKENS.Confirmation).toConstantValue(confirmation);
  // Every write goes through the notifying file system (it publishes to the change feed), then,
  // with the journal on, the journaling one (journal-binding.ts), or with it off and confirm on, the
  // confirming one (it asks before every overwrite or removal), then the real one.
  const files = config.journal || confirmation ? TOKENS.InnerFileSystem : TOKENS.NotifiedFileSystem;
  // The file system and its watcher are bound as a pair (file-system-binding.ts), made on first use.
  let chosen: FileSystemPair | undefined;
  const pair = (): FileSystemPair => (chosen ??= chooseFileSystem(config, overrides));
  container.bind(files).toResolvedValue(() => pair().files);
  if (config.journal) {
    const shared = remote && config.sessionStoreUrl !== '' ? { url: config.sessionStoreUrl, store: remote.changeJournal } : undefined;
    bindJournal(container, config.journal, shared);
  } else if (confirmation) {
    container.bind(TOKENS.NotifiedFileSystem).toResolvedValue((inner: FileSystemPort) => new ConfirmingFileSystem(inner, confirmation), [TOKENS.InnerFileSystem]);
  }
  container.bind(RootKeys).toResolvedValue((hasher: ContentHasher) => new RootKeys(hasher), [TOKENS.ContentHasher]);
  container
    .bind(TOKENS.FileSystem)
    .toResolvedValue((inner: FileSystemPort, feed: ChangeFeed, keys: RootKeys) => new NotifyingFileSystem(inner, feed, keys), [
      TOKENS.NotifiedFileSystem,
      TOKENS.ChangeFeed,
      RootKeys,
    ]);
  container.bind(TOKENS.FileWatcher).toResolvedValue(() => pair().watcher);
  if (overrides.clock) container.bind(TOKENS.Clock).toConstantValue(overrides.clock);
  else container.bind(TOKENS.Clock).to(SystemClock);
  container.bind(TOKENS.Logger).toConstantValue(overrides.logger ?? new WinstonLogger(config.logLevel));
  container.bind(TOKENS.RegexEngine).to(Re2RegexEngine);
  container.bind(IgnoreRuleCache).toResolvedValue((logger: Logger) => new IgnoreRuleCache(logger), [TOKENS.Logger]).inSingletonScope();
  container.bind(TOKENS.ContentHasher).to(NodeContentHasher);
  container
    .bind(SearchIndexes)
    .toResolvedValue(
      (fs: FileSystemPort, settings: Settings, ignoreCache: IgnoreRuleCache, logger: Logger, snapshots: TreeSnapshots) =>
        searchIndexesOf(fs, settings, ignoreCache, indexPersistenceOf(config, settings, logger), snapshots),
      [TOKENS.FileSystem, TOKENS.Settings, IgnoreRuleCache, TOKENS.Logger, TreeSnapshots],
    )
    .inSingletonScope();
  container
    .bind(TreeSnapshots)
    .toResolvedValue(treeSnapshotsOf(config), [TOKENS.FileSystem, TOKENS.FileWatcher, TOKENS.Settings, IgnoreRuleCache, TOKENS.ChangeFeed, RootKeys])
    .inSingletonScope();

  container.bind(TOKENS.SessionStore).toResolvedValue(sessionStoreOf(config, remote), [TOKENS.Clock, TOKENS.Logger]);
  container.bind(TOKENS.ChangeFeed).toResolvedValue(changeFeedOf(config, remote), [TOKENS.Logger]);

  container.load(...toolFamilyModules(servedToolsets(config), specs));

  container.bind(McpServerFactory).toSelf();
  container.bind(SessionRegistry).toSelf();
  container.bind(RequestScopes).toSelf();
  container.bind(StateHandles).toSelf();
  const limits = requestLimitsOf(config);
  container.bind(AdmissionBudget).toConstantValue(new AdmissionBudget({ total: limits.inflightRequestBytes, perPrincipal: limits.inflightRequestBytesPerPrincipal }));
  container.bind(ModernListen).toSelf();
  container.bind(StdioServer).toSelf();
  return container;
}

/**
 * The stdio server's container. The Redis stores and change feed (and ioredis with them) are
 * loaded only when session_store.url asks for them.
 */
export async function buildStdioContainer(config: AppConfig, overrides: ContainerOverrides = {}): Promise<Container> {
  if (config.sessionStoreUrl === '') return buildCoreContainer(config, overrides);
  const { redisStores } = await import('./redis-stores.js');
  return buildCoreContainer(config, overrides, redisStores);
}

/** The indexes grep narrows its reads with, under the search settings (off when they name none). */
function searchIndexesOf(fs: FileSystemPort, settings: Settings, ignoreCache: IgnoreRuleCache, persistence: IndexPersistence | undefined, snapshots: TreeSnapshots): SearchIndexes {
  const index = settings.search.index ?? { mode: 'off', maxBytes: 0, minRootBytes: 0 };
  const walkFirst = (root: Root) => snapshots.settled(root);
  return new SearchIndexes(fs, { ...index, maxFileBytes: settings.maxFileSize, ignore: settings.search.ignore ?? 'gitignore' }, ignoreCache, persistence, walkFirst);
}

/** Indexes kept in the state directory between runs, when loadConfig found one outside every root. */
function indexPersistenceOf(config: AppConfig, settings: Settings, logger: Logger): IndexPersistence | undefined {
  const index = settings.search.index;
  if (config.searchIndexDir === undefined || index === undefined || index.mode === 'off') return undefined;
  return new IndexPersistence(new NodeIndexStore(config.searchIndexDir), logger, { maxBytes: index.maxBytes, ...PERSISTENCE_DEFAULTS });
}
