import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';

/** The SDK fields that say "this transport answered initialize for session X". */
interface InitializedState {
  sessionId?: string;
  _initialized?: boolean;
}

/**
 * A transport for a session that was initialized elsewhere: on another replica, or by this
 * process before it restarted. The SDK's transport refuses every request before it has seen an
 * initialize ("Server not initialized"), and replaying a handshake would answer a client that
 * never asked. The session's existence is proven by the session store instead, so the transport
 * is put in the state a completed initialize leaves behind: the session id it would have
 * generated, and the initialized flag. The SDK exposes no public way to do this (1.x); the
 * check below fails loudly, and the multi-replica e2e test with it, if its internals move.
 */
export function resumedTransport(sessionId: string): StreamableHTTPServerTransport {
  const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: () => sessionId });
  const inner = (transport as unknown as { _webStandardTransport?: InitializedState })._webStandardTransport;
  if (!inner || !('_initialized' in inner) || inner._initialized !== false) {
    throw new Error('the MCP SDK transport changed shape: a session cannot be resumed on this replica');
  }
  inner.sessionId = sessionId;
  inner._initialized = true;
  return transport;
}
