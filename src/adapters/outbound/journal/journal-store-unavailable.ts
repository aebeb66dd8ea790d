/**
 * The journal's shared store (Redis) cannot be reached. Its own module, free of ioredis, so the
 * start-up code of every server can recognise it without loading the Redis client.
 */
export class JournalStoreUnavailable extends Error {
  constructor(readonly reason: string) {
    super(`change journal store (Redis) unreachable: ${reason}`);
    this.name = 'JournalStoreUnavailable';
  }
}
