import { randomBytes } from 'node:crypto';
import { Redis, ReplyError } from 'ioredis';
import type { Logger } from '../../../domain/ports/logger.port.js';
import { JournalStoreUnavailable } from './journal-store-unavailable.js';

/**
 * The Redis journal's (redis-change-journal.ts) connection: its keys under one prefix, its
 * heartbeat, and what an outage looks like to the domain (JournalStoreUnavailable, one WARN).
 *
 * Pending records of a server that is gone: each server keeps a heartbeat key with a short TTL and
 * marks its pending records with its instance id; a record whose owner's heartbeat expired is
 * recovery's. Not pid + host: replicas run on other hosts (no pid to probe) and in containers,
 * where every server may be pid 1; Redis's own clock times the heartbeat, so clock skew between
 * replicas does not matter.
 */
export class RedisJournalConnection {
  readonly redis: Redis;
  /** Marks this server's pending records; its heartbeat key says it is alive. */
  readonly instance = randomBytes(6).toString('hex');
  private readonly timer: NodeJS.Timeout;
  private reachable = true;

  constructor(
    url: string,
    private readonly prefix: string,
    /** How long a heartbeat outlives its last beat (it beats three times as often). */
    private readonly heartbeatMs: number,
    private readonly logger?: Logger,
  ) {
    this.redis = new Redis(url, {
      // Queued while connecting (start-up recovery runs at once), but never longer than the timeout.
      maxRetriesPerRequest: 1,
      connectTimeout: 2000,
      commandTimeout: 5000,
      retryStrategy: (attempt) => Math.min(attempt * 200, 2000),
    });
    // Without a listener ioredis reports every failed reconnect as an unhandled 'error' event.
    this.redis.on('error', (error: Error) => this.unreachable(error.message));
    this.redis.on('ready', () => {
      if (!this.reachable) this.logger?.info('journal store reachable again');
      this.reachable = true;
    });
    this.timer = setInterval(() => void this.beat().catch(() => undefined), Math.max(1, Math.floor(this.heartbeatMs / 3)));
    this.timer.unref();
  }

  key(name: string): string {
    return `${this.prefix}${name}`;
  }

  /** Runs a command; a Redis that cannot be reached is JournalStoreUnavailable, a Redis that answered with an error is that error. */
  async call<T>(command: () => Promise<T>): Promise<T> {
    try {
      return await command();
    } catch (error) {
      // Redis answered, with an error: not an outage.
      if (error instanceof (ReplyError as new () => Error)) throw error;
      const reason = error instanceof Error ? error.message : String(error);
      this.unreachable(reason);
      throw new JournalStoreUnavailable(reason);
    }
  }

  /** One of redis-journal-scripts.ts's scripts, given the key prefix first and then `args`. */
  script(body: string, ...args: (string | number)[]): Promise<unknown> {
    return this.call(() => this.redis.eval(body, 0, this.prefix, ...args));
  }

  async beat(): Promise<void> {
    await this.call(() => this.redis.set(this.key(`owner:${this.instance}`), '1', 'PX', this.heartbeatMs));
  }

  /** Whether the server that marked a record `owner` still beats. */
  async alive(owner: string | undefined): Promise<boolean> {
    return owner !== undefined && (await this.call(() => this.redis.exists(this.key(`owner:${owner}`)))) === 1;
  }

  /** A graceful stop: the heartbeat goes at once, so another replica may recover what is left pending. */
  async close(): Promise<void> {
    clearInterval(this.timer);
    await this.redis.del(this.key(`owner:${this.instance}`)).catch(() => undefined);
    this.redis.disconnect();
  }

  /** What a killed server leaves: the connection drops, the heartbeat expires by itself. */
  disconnect(): void {
    clearInterval(this.timer);
    this.redis.disconnect();
  }

  /** One WARN per outage, not one per failed command or heartbeat. */
  private unreachable(reason: string): void {
    if (this.reachable) this.logger?.warn('journal store unreachable', { error: reason });
    this.reachable = false;
  }
}
