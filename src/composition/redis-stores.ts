import { RedisChangeFeed } from '../adapters/outbound/feed/redis-change-feed.js';
import { RedisChangeJournal } from '../adapters/outbound/journal/redis-change-journal.js';
import { RedisSessionState } from '../adapters/outbound/redis-session-state.js';
import { JOURNAL_DEFAULTS } from '../config/schema.js';
import type { RemoteAdapters } from './remote-adapters.js';

/**
 * What session_store.url (Redis) shares between replicas: the sessions, the change journal's
 * record index and the change feed. Its own module, so a stdio server without Redis never loads ioredis.
 */
export const redisStores: RemoteAdapters = {
  sessionStore: (url, limits, logger) => new RedisSessionState(url, limits, logger),
  changeJournal: (url, journal, retentionMs, clock, logger) =>
    new RedisChangeJournal({ url, dir: journal.dir, keyPrefix: journal.redisKeyPrefix ?? JOURNAL_DEFAULTS.redisKeyPrefix, retentionMs }, clock, logger),
  changeFeed: (url, logger) => new RedisChangeFeed(url, logger),
};
