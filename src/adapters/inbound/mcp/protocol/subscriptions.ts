import 'reflect-metadata';
import { inject, injectable } from 'inversify';
import type { Server } from '@modelcontextprotocol/server';
import { TOKENS } from '../../../shared/tokens.js';
import type { SessionEndListener } from '../mcp-tokens.js';
import { DomainError } from '../../../../domain/errors.js';
import type { Logger } from '../../../../domain/ports/logger.port.js';
import { Subscriptions } from '../../../../domain/subscriptions.js';
import { JsonRpcError } from './json-rpc-error.js';
import { parseResourceUri } from './resource-handler.js';
import { INTERNAL_ERROR_TEXT, logDenial } from '../tool-calls/result-mapper.js';
import { ProtocolErrorCode } from '@modelcontextprotocol/server';

/** At most one notifications/resources/updated per URI and session in this long; the last change of a burst is sent at its end. */
export const COALESCE_MS = 250;

/**
 * How long the first change of a burst waits for the rest of its events before it is sent: one
 * write through this server is heard twice here (the change feed at once, inotify a moment later)
 * and a replace is several events to a directory watch; both belong in the same notification.
 */
export const SETTLE_MS = 50;


/**
 * One URI of one session: the first change is sent SETTLE_MS later (its other events go with it),
 * then at most once per COALESCE_MS; a change while that window is open is sent when it closes,
 * so the last change of a burst is never lost.
 */
class Coalescer {
  private timer?: NodeJS.Timeout;
  /** Sent, and the COALESCE_MS window is open (rather than settling before the send). */
  private quiet = false;
  private pending = false;

  constructor(private readonly send: () => void) {}

  changed(): void {
    if (this.timer) {
      // Settling: this change goes with the send to come. Quiet: it waits for the window to close.
      if (this.quiet) this.pending = true;
      return;
    }
    this.start(SETTLE_MS, () => {
      this.send();
      this.quiet = true;
      this.start(COALESCE_MS, () => {
        this.quiet = false;
        if (!this.pending) return;
        this.pending = false;
        this.changed();
      });
    });
  }

  stop(): void {
    clearTimeout(this.timer);
    this.timer = undefined;
    this.quiet = false;
    this.pending = false;
  }

  private start(ms: number, then: () => void): void {
    this.timer = setTimeout(() => {
      this.timer = undefined;
      then();
    }, ms);
    this.timer.unref();
  }
}

/**
 * resources/subscribe and resources/unsubscribe for mcpfs:// URIs (Subscriptions does the rest),
 * and notifications/resources/updated to the session when a subscribed entry changes. A session's
 * subscriptions end with it (DELETE, idle expiry, the stdio connection closing).
 */
@injectable()
export class McpSubscriptionHandler implements SessionEndListener {
  /** Per session, per subscribed entry (its key: every spelling of one URI is one entry, told at the latest spelling). */
  private readonly sessions = new Map<string, Map<string, Coalescer>>();

  constructor(
    @inject(Subscriptions) private readonly subscriptions: Subscriptions,
    @inject(TOKENS.Logger) private readonly logger: Logger,
  ) {}

  register(server: Server, sessionId: string, principal: string, asPrincipal: <T>(action: () => T) => T): void {
    server.setRequestHandler('resources/subscribe', (request) =>
      asPrincipal(() => this.subscribe(server, sessionId, principal, request.params.uri)),
    );
    server.setRequestHandler('resources/unsubscribe', (request) => asPrincipal(() => this.unsubscribe(sessionId, principal, request.params.uri)));
  }

  sessionEnded(sessionId: string): void {
    for (const coalescer of this.sessions.get(sessionId)?.values() ?? []) coalescer.stop();
    this.sessions.delete(sessionId);
    this.subscriptions.dropSession(sessionId);
  }

  /**
   * One resource of a subscriptions/listen stream (2026-07-28): `listenId` stands for a session
   * (sessionEnded(listenId) ends the stream's subscriptions and gives back its watch budget), and
   * `send` is told of changes, coalesced as for resources/subscribe. Run as the stream's principal:
   * the same grant, tool policy, link and budget checks as resources/subscribe apply.
   */
  async listen(listenId: string, principal: string, uri: string, send: () => void): Promise<void> {
    await this.hold('subscriptions/listen', listenId, principal, uri, send);
  }

  private async subscribe(server: Server, sessionId: string, principal: string, uri: string): Promise<Record<string, never>> {
    // Bound to this server: a session's server rebuilt here after an idle release is the one told once the client subscribes again.
    await this.hold('resources/subscribe', sessionId, principal, uri, () => void server.sendResourceUpdated({ uri }).catch(() => undefined));
    return {};
  }

  private async hold(method: string, sessionId: string, principal: string, uri: string, send: () => void): Promise<void> {
    const held = this.sessions.get(sessionId) ?? new Map<string, Coalescer>();
    this.sessions.set(sessionId, held);
    const coalescer = new Coalescer(send);
    const key = await this.mapped(method, sessionId, principal, uri, ({ root, path }) =>
      this.subscriptions.subscribe(sessionId, root, path, () => coalescer.changed(), principal),
    );
    held.get(key)?.stop();
    held.set(key, coalescer);
  }

  private async unsubscribe(sessionId: string, principal: string, uri: string): Promise<Record<string, never>> {
    const key = await this.mapped('resources/unsubscribe', sessionId, principal, uri, async ({ root, path }) => this.subscriptions.unsubscribe(sessionId, root, path));
    this.sessions.get(sessionId)?.get(key)?.stop();
    this.sessions.get(sessionId)?.delete(key);
    return {};
  }

  /** Runs `action` on the parsed URI; errors become JSON-RPC errors a client may read (never a host path). */
  private async mapped(
    method: string,
    sessionId: string,
    principal: string,
    uri: string,
    action: (target: { root: string; path: string }) => Promise<string>,
  ): Promise<string> {
    let target: { root: string; path: string } | undefined;
    try {
      target = parseResourceUri(uri);
      const key = await action(target);
      this.logger.info(method, { root: target.root, path: target.path, outcome: 'success', session: sessionId });
      return key;
    } catch (error) {
      if (error instanceof DomainError) {
        this.logger.info(method, { root: target?.root, path: target?.path, outcome: 'error', error_code: error.code, session: sessionId });
        if (error.isSecurityDenial) logDenial(this.logger, method, target ?? {}, error, { sessionId, principal });
        throw error.code === 'NOT_FOUND' ? JsonRpcError.resourceNotFound(uri, error.toClientText()) : JsonRpcError.invalidParams(error.toClientText());
      }
      // Security: never the raw message, which may carry a host path.
      this.logger.error(`unexpected error in ${method}`, { session: sessionId, error: error instanceof Error ? `${error.name}: ${error.message}` : String(error) });
      throw new JsonRpcError(ProtocolErrorCode.InternalError, INTERNAL_ERROR_TEXT);
    }
  }
}
