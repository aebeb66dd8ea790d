import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Principal } from '../../../../domain/principal.js';

/** One request to /mcp and the principal that makes it: the one the bearer guard authenticated, or the local operator with auth.mode none. */
export interface McpRequest {
  readonly req: IncomingMessage;
  readonly res: ServerResponse;
  readonly caller: Principal;
}
