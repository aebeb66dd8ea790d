import 'reflect-metadata';
import { inject, injectable, multiInject, optional } from 'inversify';
import type { Server } from '@modelcontextprotocol/sdk/server/index.js';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import { TOKENS, type SessionEndListener } from '../../../composition/tokens.js';
import type { Logger } from '../../../domain/ports/logger.port.js';
import type { Principal } from '../../../domain/principal.js';

export interface McpSession {
  readonly id: string;
  readonly server: Server;
  readonly transport: Transport;
  /** Who opened the session; only that principal may use it (HTTP with auth). */
  readonly principal?: Principal;
}

/**
 * The open MCP sessions (one MCP Server and transport each). A session ends exactly once,
 * whichever way it goes (DELETE, transport close, shutdown, end of stdin), and that is when
 * the per-session state held by SessionEndListeners is dropped.
 */
@injectable()
export class SessionRegistry {
  private readonly sessions = new Map<string, McpSession>();
  private readonly listeners: readonly SessionEndListener[];

  constructor(
    @multiInject(TOKENS.SessionEndListener) @optional() listeners: SessionEndListener[] | undefined,
    @inject(TOKENS.Logger) private readonly logger: Logger,
  ) {
    this.listeners = listeners ?? [];
  }

  /** Registers the session and arranges for `end` to run when its connection closes. */
  add(session: McpSession): void {
    this.sessions.set(session.id, session);
    session.server.onclose = () => this.end(session.id);
    this.logger.info('session started', { session: session.id, principal: session.principal?.name });
  }

  get(id: string): McpSession | undefined {
    return this.sessions.get(id);
  }

  get size(): number {
    return this.sessions.size;
  }

  end(id: string): void {
    if (!this.sessions.delete(id)) return;
    for (const listener of this.listeners) {
      try {
        listener.sessionEnded(id);
      } catch (error) {
        this.logger.error('session end listener failed', { session: id, error: String(error) });
      }
    }
    this.logger.info('session ended', { session: id });
  }

  async closeAll(): Promise<void> {
    const open = [...this.sessions.values()];
    await Promise.all(
      open.map(async (session) => {
        try {
          await session.server.close();
        } catch (error) {
          this.logger.warn('closing a session failed', { session: session.id, error: String(error) });
        }
        this.end(session.id);
      }),
    );
  }
}
