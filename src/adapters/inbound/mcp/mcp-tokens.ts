import type { ServiceIdentifier } from 'inversify';
import type { AsyncLocalChangeAuthor } from './tool-calls/call-author.js';
import type { ElicitingConfirmation } from './tool-calls/call-confirmation.js';
import type { AsyncLocalPrincipalContext } from './protocol/call-principal.js';
import type { ToolDefinition } from './tool-calls/tool-definition.js';

/** Told when an MCP session is ended by its client (DELETE). */
export interface SessionEndListener {
  sessionEnded(sessionId: string): void;
}

/** Tokens that name a module of the MCP adapter, beside it; the ports' tokens are in adapters/shared/tokens.ts. */
export const MCP_TOKENS = {
  /** The principal of the tool call being served; PathPolicy narrows the roots to its grant. */
  PrincipalContext: Symbol.for('PrincipalContext') as ServiceIdentifier<AsyncLocalPrincipalContext>,
  /** The principal, session and tool of the call in progress, for journal records. */
  ChangeAuthors: Symbol.for('ChangeAuthors') as ServiceIdentifier<AsyncLocalChangeAuthor>,
  /** Asks the calling session's person before a change the journal could not undo; bound unless confirm.enabled is false. */
  Confirmation: Symbol.for('Confirmation') as ServiceIdentifier<ElicitingConfirmation>,
  /** Multi-bound: told when an MCP session is ended by its client (DELETE). */
  SessionEndListener: Symbol.for('SessionEndListener') as ServiceIdentifier<SessionEndListener>,
  /** Multi-bound: every tool family module binds its definitions here. */
  ToolDefinition: Symbol.for('ToolDefinition') as ServiceIdentifier<ToolDefinition>,
} as const;
