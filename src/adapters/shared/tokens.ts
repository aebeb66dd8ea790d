import type { ServiceIdentifier } from 'inversify';
import type { AppConfig } from '../../config/app-config.js';
import type { Clock } from '../../domain/ports/clock.port.js';
import type { ContentHasher } from '../../domain/ports/content-hasher.port.js';
import type { FileSystemPort } from '../../domain/ports/file-system.port.js';
import type { Logger } from '../../domain/ports/logger.port.js';
import type { RegexEngine } from '../../domain/ports/regex-engine.port.js';
import type { RootsSource } from '../../domain/ports/roots-source.port.js';
import type { FileWatcher } from '../../domain/ports/file-watcher.port.js';
import type { ChangeFeed } from '../../domain/ports/change-feed.port.js';
import type { SessionStatePort } from '../../domain/ports/session-state.port.js';
import type { ChangeJournal } from '../../domain/ports/change-journal.port.js';
import type { PathPolicy } from '../../domain/path-policy.js';
import type { ToolPolicy } from '../../domain/tool-policy.js';
import type { Settings } from '../../domain/settings.js';
import type { JournalingFileSystem } from '../../domain/changes/journaling-file-system.js';
import type { Snapshots } from '../../domain/changes/snapshots.js';
import type { ServerMetrics } from './metrics.port.js';
import type { SessionStateStore } from './session-state-store.port.js';

/**
 * One typed token per port and shared service the adapters inject and the composition root binds.
 * The domain's ports cannot carry their own tokens (a typed token is inversify's ServiceIdentifier,
 * and the domain imports no framework), so they live here, the nearest module both sides import
 * without climbing; the shared contracts' tokens sit beside them. Tokens that name an inbound
 * module are in inbound/mcp/mcp-tokens.ts; composition/tokens.ts joins both for the root.
 */
export const TOKENS = {
  Config: Symbol.for('AppConfig') as ServiceIdentifier<AppConfig>,
  Settings: Symbol.for('Settings') as ServiceIdentifier<Settings>,
  /** What every use case writes through: the notifying file system, around NotifiedFileSystem. */
  FileSystem: Symbol.for('FileSystemPort') as ServiceIdentifier<FileSystemPort>,
  /** The file system whose writes are published to the ChangeFeed: the journaling one while the journal is on, else the real one. */
  NotifiedFileSystem: Symbol.for('NotifiedFileSystem') as ServiceIdentifier<FileSystemPort>,
  /** Changes made through this server, for subscriptions: in process, or Redis pub/sub when session_store.url is set. */
  ChangeFeed: Symbol.for('ChangeFeed') as ServiceIdentifier<ChangeFeed>,
  Clock: Symbol.for('Clock') as ServiceIdentifier<Clock>,
  /** Watches entries for resources/subscribe; inotify-backed over the Node file system, in memory over the in-memory one. */
  FileWatcher: Symbol.for('FileWatcher') as ServiceIdentifier<FileWatcher>,
  Logger: Symbol.for('Logger') as ServiceIdentifier<Logger>,
  RegexEngine: Symbol.for('RegexEngine') as ServiceIdentifier<RegexEngine>,
  ContentHasher: Symbol.for('ContentHasher') as ServiceIdentifier<ContentHasher>,
  /** The roots: the configured ones, or (stdio without DIR or config) the folders the client shares. */
  RootsSource: Symbol.for('RootsSource') as ServiceIdentifier<RootsSource>,
  PathPolicy: Symbol.for('PathPolicy') as ServiceIdentifier<PathPolicy>,
  ToolPolicy: Symbol.for('ToolPolicy') as ServiceIdentifier<ToolPolicy>,
  /** Per-session editor state (cwd, views); bound by the editor tools module, so swapping the store is one binding. */
  SessionState: Symbol.for('SessionState') as ServiceIdentifier<SessionStatePort>,
  /** The store behind SessionState plus session lifecycle (principal, idle expiry, caps): in memory or Redis, per session_store.url. */
  SessionStore: Symbol.for('SessionStore') as ServiceIdentifier<SessionStateStore>,
  /** The server's metrics (Prometheus), also the tool-call, journal and admission observer; bound only by the HTTP container. */
  Metrics: Symbol.for('Metrics') as ServiceIdentifier<ServerMetrics>,
  /** The file system the journal wraps (the Node adapter or an override); bound only while the journal is on. */
  InnerFileSystem: Symbol.for('InnerFileSystem') as ServiceIdentifier<FileSystemPort>,
  /** The change journal's store (disk); bound only while the journal is on, like the two below. */
  ChangeJournal: Symbol.for('ChangeJournal') as ServiceIdentifier<ChangeJournal>,
  /** Reads and compares entry states and before-images (bounded by journal.max_file_bytes). */
  Snapshots: Symbol.for('Snapshots') as ServiceIdentifier<Snapshots>,
  /** The journaling file system itself (also bound as NotifiedFileSystem), for start-up recovery. */
  JournalingFileSystem: Symbol.for('JournalingFileSystem') as ServiceIdentifier<JournalingFileSystem>,
} as const;
