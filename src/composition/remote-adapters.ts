import type { SessionLimits } from '../config/app-config.js';
import type { ChangeFeed } from '../domain/ports/change-feed.port.js';
import type { Logger } from '../domain/ports/logger.port.js';
import type { SessionStateStore } from '../adapters/shared/session-state-store.port.js';
import type { RemoteJournalFactory } from './journal-binding.js';

/**
 * What several replicas share when session_store.url is set (Redis): the session store, the change
 * journal's record index and the change feed. The caller decides how they are loaded. Its own
 * module, so core-container and redis-stores both name it without importing each other.
 */
export interface RemoteAdapters {
  readonly sessionStore: (url: string, limits: SessionLimits, logger: Logger) => SessionStateStore;
  readonly changeJournal: RemoteJournalFactory;
  readonly changeFeed: (url: string, logger: Logger) => ChangeFeed;
}
