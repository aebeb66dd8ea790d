import type Koa from 'koa';
import { THE_START } from '../../../domain/changes/change-id.js';
import type { ChangeView } from '../../../domain/changes/change-view.js';
import { DomainError } from '../../../domain/errors.js';
import type { ChangeFeed } from '../../../domain/ports/change-feed.port.js';
import type { Logger } from '../../../domain/ports/logger.port.js';

/** A comment frame this often keeps proxies and idle timeouts from cutting a quiet stream. */
const KEEP_ALIVE_MS = 15_000;
/**
 * Besides the feed, the journal is asked this often: a writer the feed does not reach (a stdio server
 * on the same disk journal, without Redis) shows up too. A disk journal answers from its index unless
 * its records directory changed, so a quiet poll costs a stat.
 */
export const DEFAULT_POLL_MS = 2000;
/** Feed events closer than this are one query: a tree copy publishes one per entry. */
const COALESCE_MS = 50;

/** The caller's changes newer than an id (or, with none, its newest one), as list_changes gives them. */
export type NewerChanges = (sinceId: string | undefined) => Promise<{ changes: ChangeView[] }>;

/**
 * One live stream of the /changes page: server-sent events, `event: changes` with the changes that
 * are new since the last one sent. Woken by the change feed (every replica's writes, through Redis
 * when there are several), then it asks the journal as the stream's principal, so it sends only what
 * that principal's list would show.
 */
export class ChangeStream {
  private lastId?: string;
  private timer?: NodeJS.Timeout;
  private busy = false;
  private again = false;
  private closed = false;

  constructor(
    private readonly feed: ChangeFeed,
    private readonly newer: NewerChanges,
    private readonly logger: Logger,
    private readonly pollMs = DEFAULT_POLL_MS,
  ) {}

  serve(ctx: Koa.Context, sinceId: string | undefined): void {
    // The response is written here, not by Koa: it stays open until the client goes.
    ctx.respond = false;
    const res = ctx.res;
    res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-store, no-transform', connection: 'keep-alive', 'x-accel-buffering': 'no' });
    res.flushHeaders();
    const write = (frame: string) => {
      if (!this.closed && !res.writableEnded && !res.destroyed) res.write(frame);
    };
    this.lastId = sinceId;
    const check = async () => {
      if (this.busy) {
        this.again = true;
        return;
      }
      this.busy = true;
      try {
        do {
          this.again = false;
          const started = this.lastId;
          const { changes } = await this.newer(started);
          // Nothing yet: every change from now on is new.
          if (started === undefined && changes.length === 0) this.lastId = THE_START;
          if (changes.length === 0) continue;
          this.lastId = changes[0].id;
          // The first query, without an id, only finds where "new" starts.
          if (started !== undefined) write(`event: changes\ndata: ${JSON.stringify({ changes })}\n\n`);
        } while (this.again && !this.closed);
      } catch (error) {
        // A since_id that aged out or is not the caller's: say so once and end; the page lists afresh.
        const message = error instanceof DomainError ? error.toClientText() : 'the journal could not be read';
        if (!(error instanceof DomainError)) this.logger.warn('changes stream failed', { error: String(error) });
        write(`event: failed\ndata: ${JSON.stringify({ message })}\n\n`);
        res.end();
      } finally {
        this.busy = false;
      }
    };
    const soon = () => {
      this.timer ??= setTimeout(() => {
        this.timer = undefined;
        void check();
      }, COALESCE_MS);
    };
    const unsubscribe = this.feed.subscribe(soon);
    const poll = setInterval(soon, this.pollMs);
    const keepAlive = setInterval(() => write(': keepalive\n\n'), KEEP_ALIVE_MS);
    poll.unref();
    keepAlive.unref();
    res.once('close', () => {
      this.closed = true;
      unsubscribe();
      clearInterval(poll);
      clearInterval(keepAlive);
      if (this.timer) clearTimeout(this.timer);
    });
    write(': open\n\n');
    void check();
  }
}
