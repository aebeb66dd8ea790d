import 'reflect-metadata';
import { randomUUID } from 'node:crypto';
import { inject, injectable } from 'inversify';
import { SessionRegistry } from './session-registry.js';

/**
 * A 2026-07-28 request has no session: what the tools keep per session (the editor's views and
 * working directory, a call's journal session) lives for the request alone, under an id of its own
 * that ends, everywhere, when the request is answered.
 */
@injectable()
export class RequestScopes {
  constructor(@inject(SessionRegistry) private readonly sessions: SessionRegistry) {}

  open(): string {
    return `request-${randomUUID()}`;
  }

  close(scope: string): void {
    // An unreachable store keeps the scope's state until its own expiry; the answer was already sent.
    this.sessions.end(scope, { quiet: true }).catch(() => undefined);
  }
}
