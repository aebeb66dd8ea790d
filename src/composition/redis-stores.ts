import { RedisChangeJournal } from '../adapters/outbound/journal/redis-change-journal.js';
import { RedisSessionState } from '../adapters/outbound/redis-session-state.js';
import { JOURNAL_DEFAULTS } from '../config/schema.js';
import type { RemoteStores } from './core-container.js';

/**
 * What session_store.url (Redis) shares between replicas: the sessions, and the change journal's
 * record index. Its own module, so a stdio server without Redis never loads ioredis.
 */
export const redisStores: RemoteStores = {
  sessionStore: (url, limits, logger) => new RedisSessionState(url, limits, logger),
  changeJournal: (url, journal, retentionMs, clock, logger) =>
    new RedisChangeJournal({ url, dir: journal.dir, keyPrefix: journal.redisKeyPrefix ?? JOURNAL_DEFAULTS.redisKeyPrefix, retentionMs }, clock, logger),
};
