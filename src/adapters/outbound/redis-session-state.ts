import { Redis } from 'ioredis';
import type { SessionLimits } from '../../config/app-config.js';
import type { Logger } from '../../domain/ports/logger.port.js';
import type { FileFingerprint } from '../../domain/ports/session-state.port.js';
import { MAX_FILES_PER_SESSION, SessionStoreUnavailable, type OpenOutcome, type SessionRecord, type SessionStateStore } from '../shared/session-state-store.port.js';

const PREFIX = 'mcp-fs:';
/** Sorted sets of open session ids, scored by expiry time (ms): one for the cluster, one per principal. */
const OPEN_SET = `${PREFIX}open`;
const principalSet = (principal: string) => `${PREFIX}principal:${principal}`;
/** Hash: principal, cwd. Its TTL is the session's idle timeout, refreshed on every request. */
const sessionKey = (id: string) => `${PREFIX}session:${id}`;
/** Hash: canonical namespace path -> JSON fingerprint; same TTL as the session hash. */
const filesKey = (id: string) => `${PREFIX}files:${id}`;

// Every script reads the time from Redis, so replicas with skewed clocks agree on expiry.
const NOW_MS = `local t = redis.call('TIME') local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)`;

/** KEYS: open set, principal set, session hash. ARGV: id, principal, ttl ms, max, max per principal. */
const OPEN_SCRIPT = `${NOW_MS}
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', now)
redis.call('ZREMRANGEBYSCORE', KEYS[2], '-inf', now)
if redis.call('ZCARD', KEYS[1]) >= tonumber(ARGV[4]) then return 1 end
if redis.call('ZCARD', KEYS[2]) >= tonumber(ARGV[5]) then return 2 end
local expiry = now + tonumber(ARGV[3])
redis.call('ZADD', KEYS[1], expiry, ARGV[1])
redis.call('ZADD', KEYS[2], expiry, ARGV[1])
redis.call('HSET', KEYS[3], 'principal', ARGV[2])
redis.call('PEXPIRE', KEYS[3], ARGV[3])
return 0`;

/**
 * KEYS: files hash. ARGV: file key, fingerprint JSON, ttl ms, most files kept. Beyond the bound a
 * random other file is forgotten: that only makes the gate stricter (the session views it again).
 */
const RECORD_FILE_SCRIPT = `redis.call('HSET', KEYS[1], ARGV[1], ARGV[2])
redis.call('PEXPIRE', KEYS[1], ARGV[3])
if redis.call('HLEN', KEYS[1]) > tonumber(ARGV[4]) then
  local victim = redis.call('HRANDFIELD', KEYS[1])
  if victim == ARGV[1] then victim = redis.call('HRANDFIELD', KEYS[1]) end
  if victim ~= ARGV[1] then redis.call('HDEL', KEYS[1], victim) end
end
return 0`;

/** KEYS: session hash, files hash, open set. ARGV: id, ttl ms, principal set prefix. Returns the principal or nil. */
const TOUCH_SCRIPT = `local principal = redis.call('HGET', KEYS[1], 'principal')
if not principal then return false end
${NOW_MS}
redis.call('PEXPIRE', KEYS[1], ARGV[2])
redis.call('PEXPIRE', KEYS[2], ARGV[2])
redis.call('ZADD', KEYS[3], now + tonumber(ARGV[2]), ARGV[1])
redis.call('ZADD', ARGV[3] .. principal, now + tonumber(ARGV[2]), ARGV[1])
return principal`;

/** KEYS: session hash, files hash, open set. ARGV: id, principal set prefix. */
const CLOSE_SCRIPT = `local principal = redis.call('HGET', KEYS[1], 'principal')
redis.call('DEL', KEYS[1], KEYS[2])
redis.call('ZREM', KEYS[3], ARGV[1])
if principal then redis.call('ZREM', ARGV[2] .. principal, ARGV[1]) end
return 0`;

/**
 * Session state shared by every replica: each key carries a TTL equal to the idle timeout, so
 * Redis itself forgets an idle session, and a session opened on one replica is served by any.
 * Commands fail fast while Redis is down (no offline queue): the caller answers 503 rather
 * than hanging, and the client reconnects by itself when Redis is back.
 */
export class RedisSessionState implements SessionStateStore {
  private readonly redis: Redis;
  private wasReachable = true;

  constructor(
    url: string,
    readonly limits: SessionLimits,
    private readonly logger: Logger,
  ) {
    this.redis = new Redis(url, {
      enableOfflineQueue: false,
      maxRetriesPerRequest: 0,
      connectTimeout: 2000,
      commandTimeout: 2000,
      retryStrategy: (attempt) => Math.min(attempt * 200, 2000),
    });
    // Without a listener ioredis reports every failed reconnect as an unhandled 'error' event.
    this.redis.on('error', (error: Error) => this.markUnreachable(error));
    this.redis.on('ready', () => {
      if (!this.wasReachable) this.logger.info('session store reachable again');
      this.wasReachable = true;
    });
  }

  async workingDirectory(sessionId: string): Promise<string | undefined> {
    return (await this.call(() => this.redis.hget(sessionKey(sessionId), 'cwd'))) ?? undefined;
  }

  async setWorkingDirectory(sessionId: string, path: string): Promise<void> {
    await this.call(() => this.redis.multi().hset(sessionKey(sessionId), 'cwd', path).pexpire(sessionKey(sessionId), this.limits.idleTimeoutMs).exec());
  }

  async fingerprint(sessionId: string, fileKey: string): Promise<FileFingerprint | undefined> {
    const stored = await this.call(() => this.redis.hget(filesKey(sessionId), fileKey));
    return stored === null ? undefined : (JSON.parse(stored) as FileFingerprint);
  }

  async recordFingerprint(sessionId: string, fileKey: string, fingerprint: FileFingerprint): Promise<void> {
    await this.call(() =>
      this.redis.eval(RECORD_FILE_SCRIPT, 1, filesKey(sessionId), fileKey, JSON.stringify(fingerprint), this.limits.idleTimeoutMs, MAX_FILES_PER_SESSION),
    );
  }

  async open(sessionId: string, principal: string): Promise<OpenOutcome> {
    const { idleTimeoutMs, max, maxPerPrincipal } = this.limits;
    const outcome = await this.call(() =>
      this.redis.eval(OPEN_SCRIPT, 3, OPEN_SET, principalSet(principal), sessionKey(sessionId), sessionId, principal, idleTimeoutMs, max, maxPerPrincipal),
    );
    if (outcome === 1) return 'too-many-sessions';
    if (outcome === 2) return 'too-many-for-principal';
    return 'opened';
  }

  async touch(sessionId: string): Promise<SessionRecord | undefined> {
    const principal = await this.call(() =>
      this.redis.eval(TOUCH_SCRIPT, 3, sessionKey(sessionId), filesKey(sessionId), OPEN_SET, sessionId, this.limits.idleTimeoutMs, principalSet('')),
    );
    return typeof principal === 'string' ? { principal } : undefined;
  }

  async close(sessionId: string): Promise<void> {
    await this.call(() => this.redis.eval(CLOSE_SCRIPT, 3, sessionKey(sessionId), filesKey(sessionId), OPEN_SET, sessionId, principalSet('')));
  }

  /** Redis expires idle keys itself; the open sets are trimmed by every open. */
  async sweep(): Promise<void> {}

  reachable(): boolean {
    // A failed command counts at once: the socket's close event may come after it.
    return this.redis.status === 'ready' && this.wasReachable;
  }

  async disconnect(): Promise<void> {
    this.redis.disconnect();
  }

  private async call<T>(command: () => Promise<T>): Promise<T> {
    try {
      return await command();
    } catch (error) {
      this.markUnreachable(error);
      throw new SessionStoreUnavailable(error instanceof Error ? error.message : String(error));
    }
  }

  private markUnreachable(error: unknown): void {
    if (this.wasReachable) this.logger.warn('session store unreachable', { error: error instanceof Error ? error.message : String(error) });
    this.wasReachable = false;
  }
}
