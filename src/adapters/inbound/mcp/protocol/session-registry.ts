import 'reflect-metadata';
import { inject, injectable, multiInject, optional } from 'inversify';
import type { Server, Transport } from '@modelcontextprotocol/server';
import { TOKENS } from '../../../shared/tokens.js';
import { MCP_TOKENS, type SessionEndListener } from '../mcp-tokens.js';
import type { ChangeFeed } from '../../../../domain/ports/change-feed.port.js';
import type { ChangeJournal } from '../../../../domain/ports/change-journal.port.js';
import type { Clock } from '../../../../domain/ports/clock.port.js';
import type { Logger } from '../../../../domain/ports/logger.port.js';
import type { Principal } from '../../../../domain/principal.js';
import type { OpenOutcome, SessionRecord, SessionStateStore } from '../../../shared/session-state-store.port.js';

export interface McpSession {
  readonly id: string;
  readonly server: Server;
  readonly transport: Transport;
  /** Who opened the session; only that principal may use it (HTTP with auth). */
  readonly principal?: Principal;
}

interface LocalSession extends McpSession {
  lastSeenMs: number;
}

/** How often idle sessions are looked for; a request after the timeout is refused whatever this is. */
const SWEEP_INTERVAL_MS = 60_000;

/**
 * The sessions this process serves (one MCP Server and transport each) in front of the
 * session store, which holds everything that must outlive them: the principal, last activity,
 * the editor state. A local Server is only a cache: it is dropped when the session idles here
 * and rebuilt on the next request if the store still knows the session (another replica may
 * have kept it alive). A session *ends* (DELETE, idle expiry) exactly once: its store state is
 * dropped and the SessionEndListeners are told.
 */
@injectable()
export class SessionRegistry {
  private readonly local = new Map<string, LocalSession>();
  private readonly listeners: readonly SessionEndListener[];
  private sweeper?: NodeJS.Timeout;
  /** Set by closeAll: no session is served from here any more. */
  private closing = false;

  constructor(
    @multiInject(MCP_TOKENS.SessionEndListener) @optional() listeners: SessionEndListener[] | undefined,
    @inject(TOKENS.Logger) private readonly logger: Logger,
    @inject(TOKENS.SessionStore) private readonly store: SessionStateStore,
    @inject(TOKENS.Clock) private readonly clock: Clock,
    @inject(TOKENS.ChangeFeed) private readonly feed: ChangeFeed,
    @inject(TOKENS.ChangeJournal) @optional() private readonly journal?: ChangeJournal,
  ) {
    this.listeners = listeners ?? [];
  }

  /** Records a new session in the store unless a cap is reached. Throws SessionStoreUnavailable. */
  open(id: string, principal: string): Promise<OpenOutcome> {
    return this.store.open(id, principal);
  }

  /** Drops the record of a session whose initialize was refused: it never started, so nobody is told. */
  discard(id: string): Promise<void> {
    return this.store.close(id);
  }

  /**
   * The store's record of a session, marking it active; undefined when it ended or idled out
   * (then a local Server left for it is dropped too). Throws SessionStoreUnavailable.
   */
  async resume(id: string): Promise<SessionRecord | undefined> {
    const record = await this.store.touch(id);
    const session = this.local.get(id);
    if (!record) {
      if (session) await this.release(session);
      return undefined;
    }
    if (session) session.lastSeenMs = this.nowMs();
    return record;
  }

  /** Serves the session from this process; `end` runs if its transport closes (DELETE). */
  add(session: McpSession): void {
    if (this.closing) {
      // Shutting down: a request that raced the stop gets no Server kept alive past it (the store keeps the session).
      void session.server.close().catch(() => undefined);
      return;
    }
    this.local.set(session.id, { ...session, lastSeenMs: this.nowMs() });
    // Only this Server's own close forgets the session: over stdio a discarded discover probe's Server closes after its successor was added.
    session.server.onclose = () => {
      if (this.local.get(session.id)?.server === session.server) this.forget(session.id);
    };
    this.logger.info('session started', { session: session.id, principal: session.principal?.name });
  }

  get(id: string): McpSession | undefined {
    return this.local.get(id);
  }

  /** Sessions served by this process. */
  get size(): number {
    return this.local.size;
  }

  /**
   * Ends the session everywhere: store state dropped, listeners told, local Server closed. `quiet`
   * ends a request's scope (2026-07-28), which is not worth an info line per request.
   */
  async end(id: string, { quiet = false } = {}): Promise<void> {
    await this.store.close(id);
    for (const listener of this.listeners) {
      try {
        listener.sessionEnded(id);
      } catch (error) {
        this.logger.error('session end listener failed', { session: id, error: String(error) });
      }
    }
    const session = this.local.get(id);
    if (session) await this.release(session);
    if (!quiet) this.logger.info('session ended', { session: id });
  }

  /** Starts the periodic idle sweep; the timer never keeps the process alive. */
  startSweeping(intervalMs = SWEEP_INTERVAL_MS): void {
    if (this.sweeper) return;
    this.sweeper = setInterval(() => void this.sweep(), intervalMs);
    this.sweeper.unref();
  }

  /** Drops sessions idle past the timeout from the store, and local Servers idle here as long. */
  async sweep(): Promise<void> {
    try {
      await this.store.sweep();
    } catch (error) {
      this.logger.warn('session sweep failed', { error: String(error) });
    }
    const cutoff = this.nowMs() - this.store.limits.idleTimeoutMs;
    const idle = [...this.local.values()].filter((session) => session.lastSeenMs <= cutoff);
    await Promise.all(idle.map((session) => this.release(session)));
  }

  /** Closes every local Server and the shared connections, the journal's included (shutdown). The store keeps the sessions: another replica, or this one restarted, serves them on. */
  async closeAll(): Promise<void> {
    this.closing = true;
    if (this.sweeper) clearInterval(this.sweeper);
    this.sweeper = undefined;
    await Promise.all([...this.local.values()].map((session) => this.release(session)));
    await this.store.disconnect();
    await this.feed.close();
    // The journal's Redis connection and heartbeat too: left open, they keep the process (or a test's worker) alive.
    await this.journal?.close?.();
  }

  private async release(session: LocalSession): Promise<void> {
    this.forget(session.id);
    try {
      await session.server.close();
    } catch (error) {
      this.logger.warn('closing a session failed', { session: session.id, error: String(error) });
    }
  }

  private forget(id: string): void {
    if (this.local.delete(id)) this.logger.debug('session released by this process', { session: id });
  }

  private nowMs(): number {
    return this.clock.now().getTime();
  }
}
