import 'reflect-metadata';
import { randomBytes } from 'node:crypto';
import { inject, injectable } from 'inversify';
import type { CallToolResult } from '@modelcontextprotocol/server';
import { TOKENS } from '../../../shared/tokens.js';
import { DomainError } from '../../../../domain/errors.js';
import type { HandleUse } from '../tool-calls/tool-definition.js';
import { SessionStoreUnavailable, type SessionStateStore } from '../../../shared/session-state-store.port.js';


/** The state a call works under: a session id, or a handle (then echoed back to the model). */
export interface CallState {
  readonly sessionId: string;
  readonly handle?: string;
  /** The handle was made for this call. */
  readonly minted?: boolean;
}

/** `h_` + 32 base64url characters = 192 random bits. */
const HANDLE_FORMAT = /^h_[A-Za-z0-9_-]{32}$/;

/**
 * A 2026-07-28 client has no session, so the editor's per-conversation state (views, working
 * directory, the journal's session name) lives under a handle the server mints and the model
 * passes back as the `handle` argument. A handle is a record in the session store, so it works on
 * every replica (Redis) and expires when idle exactly as a session does, under the same caps.
 * A 2025-era session may also present one; without one it keeps its session id.
 */
@injectable()
export class StateHandles {
  constructor(@inject(TOKENS.SessionStore) private readonly store: SessionStateStore) {}

  async stateFor(presented: unknown, principal: string, options: { modern: boolean; sessionId: string; use: HandleUse }): Promise<CallState> {
    if (presented !== undefined) return { sessionId: await this.resolve(presented, principal), handle: presented as string };
    if (!options.modern || options.use === 'accepts') return { sessionId: options.sessionId };
    const handle = await this.mint(principal);
    return { sessionId: handle, handle, minted: true };
  }

  private async resolve(presented: unknown, principal: string): Promise<string> {
    if (typeof presented !== 'string') throw new DomainError('INVALID_ARGUMENT', `invalid handle: expected a string from an earlier result`);
    // Security: a malformed value never reaches the store as a key (no Redis key injection, no probing other records).
    if (!HANDLE_FORMAT.test(presented)) throw unknownHandle();
    const record = await this.guard(() => this.store.touch(presented));
    if (!record) throw unknownHandle();
    // Security: a handle is bound to the principal it was minted for; another principal learns nothing of its state.
    if (record.principal !== principal) throw new DomainError('ACCESS_DENIED', 'handle belongs to another principal; call without `handle` to get your own');
    return presented;
  }

  private async mint(principal: string): Promise<string> {
    // Security: unguessable, so holding a handle is the only way into its views and working directory.
    const handle = `h_${randomBytes(24).toString('base64url')}`;
    const outcome = await this.guard(() => this.store.open(handle, principal));
    if (outcome !== 'opened') throw new DomainError('CONFLICT', `no new handle: ${outcome === 'too-many-sessions' ? 'the server' : 'your principal'} has too many open sessions and handles; pass an existing handle or retry later`);
    return handle;
  }

  private async guard<T>(action: () => Promise<T>): Promise<T> {
    try {
      return await action();
    } catch (error) {
      if (error instanceof SessionStoreUnavailable) throw new DomainError('IO_ERROR', 'the handle store is unreachable; retry');
      throw error;
    }
  }
}

function unknownHandle(): DomainError {
  return new DomainError('INVALID_ARGUMENT', 'unknown or expired handle; call without `handle` to get a new one (views are then needed again)');
}

/** A call's result with its handle added, for the model to pass back: in the structured result and as a last text block. */
export function withHandle(result: CallToolResult, state: CallState): CallToolResult {
  if (state.handle === undefined) return result;
  const note = state.minted ? `handle: ${state.handle} (pass it as \`handle\` to later view and edit calls)` : `handle: ${state.handle}`;
  const content = [...result.content, { type: 'text' as const, text: note }];
  if (result.structuredContent === undefined) return { ...result, content };
  return { ...result, content, structuredContent: { ...result.structuredContent, handle: state.handle } };
}
