import { randomUUID } from 'node:crypto';
import { Redis } from 'ioredis';
import { entryChangeFrom } from '../../../domain/changes/root-keys.js';
import type { ChangeFeed, EntryChange, EntryChangeListener } from '../../../domain/ports/change-feed.port.js';
import type { Logger } from '../../../domain/ports/logger.port.js';
import { InProcessChangeFeed } from './in-process-change-feed.js';

/**
 * Under the session store's key prefix, and per database number: pub/sub channels ignore the
 * database, and deployments sharing one Redis are kept apart by it (`mcp-fs:changes:0` for db 0).
 */
export const changeChannel = (db: number) => `mcp-fs:changes:${db}`;
/** A change names at most two paths; anything longer is not one of ours. */
const MAX_MESSAGE_CHARS = 64 * 1024;

const retryStrategy = (attempt: number) => Math.min(attempt * 200, 2000);

/**
 * The change feed of several replicas sharing a Redis (session_store.url): Redis pub/sub, no
 * polling. A change is told to this replica's listeners at once (so its own subscribers never
 * wait for Redis, nor miss a change while Redis is down) and published for the others; its echo
 * is recognised by this feed's origin id and dropped, so each listener hears each change once.
 * Publishing never waits: commands fail fast while Redis is down (no offline queue), and a change
 * published then reaches only this replica. Subscribing needs a connection of its own (a Redis
 * connection in subscriber mode can do nothing else); it subscribes again on every reconnect.
 *
 * Security: what arrives is foreign input: checked by entryChangeFrom (a root key and plain
 * in-root segments, nothing else) before any listener sees it.
 */
export class RedisChangeFeed implements ChangeFeed {
  private readonly local = new InProcessChangeFeed();
  private readonly origin = randomUUID();
  private readonly publisher: Redis;
  private readonly subscriber: Redis;
  private readonly channel: string;
  private readonly listening: Promise<void>;
  private markListening: () => void = () => undefined;
  private reachable = true;
  private warnedMalformed = false;

  constructor(
    url: string,
    private readonly logger: Logger,
    channel?: string,
  ) {
    this.publisher = new Redis(url, { enableOfflineQueue: false, maxRetriesPerRequest: 0, connectTimeout: 2000, commandTimeout: 2000, retryStrategy });
    this.channel = channel ?? changeChannel(this.publisher.options.db ?? 0);
    this.subscriber = new Redis(url, { autoResubscribe: false, connectTimeout: 2000, retryStrategy });
    // Without listeners ioredis reports every failed reconnect as an unhandled 'error' event.
    this.publisher.on('error', (error: Error) => this.unreachable(error));
    this.subscriber.on('error', (error: Error) => this.unreachable(error));
    this.publisher.on('ready', () => this.backAgain());
    this.listening = new Promise((resolve) => (this.markListening = resolve));
    // On every (re)connect: a new connection listens to nothing yet.
    this.subscriber.on('ready', () => this.listen());
    this.subscriber.on('message', (channel: string, text: string) => this.received(channel, text));
  }

  publish(change: EntryChange): void {
    this.local.publish(change);
    const message = JSON.stringify({ origin: this.origin, rootKey: change.rootKey, paths: change.paths });
    this.publisher.publish(this.channel, message).catch((error: unknown) => this.unreachable(error));
  }

  subscribe(listener: EntryChangeListener): () => void {
    return this.local.subscribe(listener);
  }

  /** Resolves once the subscriber connection first listens (for tests). */
  subscribed(): Promise<void> {
    return this.listening;
  }

  async close(): Promise<void> {
    await this.local.close();
    this.publisher.disconnect();
    this.subscriber.disconnect();
  }

  private listen(): void {
    this.subscriber.subscribe(this.channel).then(
      () => this.markListening(),
      (error: unknown) => this.unreachable(error),
    );
  }

  private received(channel: string, text: string): void {
    if (channel !== this.channel) return;
    let value: unknown;
    try {
      value = text.length <= MAX_MESSAGE_CHARS ? JSON.parse(text) : undefined;
    } catch {
      value = undefined;
    }
    // Our own change, already told to our listeners when it was published.
    if ((value as { origin?: unknown } | undefined)?.origin === this.origin) return;
    const change = entryChangeFrom(value);
    if (change === null) return this.malformed();
    this.local.publish(change);
  }

  private malformed(): void {
    // Security: the message itself is not logged (it is foreign input, maybe large).
    if (!this.warnedMalformed) this.logger.warn('change feed: a message that is not a change was ignored', { channel: this.channel });
    this.warnedMalformed = true;
  }

  private unreachable(error: unknown): void {
    if (this.reachable) {
      this.logger.warn('change feed unreachable: changes made here reach no other replica until it is back', {
        error: error instanceof Error ? error.message : String(error),
      });
    }
    this.reachable = false;
  }

  private backAgain(): void {
    if (!this.reachable) this.logger.info('change feed reachable again');
    this.reachable = true;
  }
}
