import type { JSONRPCMessage, Server } from '@modelcontextprotocol/server';
import { UNRESTRICTED_PRINCIPAL } from '../../../../domain/principal.js';
import type { McpServerFactory } from '../protocol/server-factory.js';
import { SessionLog } from '../protocol/session-log.js';
import { plainToolCall, settleCall } from './modern-fast-call.js';
import type { RequestId } from './request-id-scan.js';

/**
 * Read-only tools/call on a 2025-era stdio session, answered without the SDK's protocol layer
 * (issue 29 §4: its per-request validation, context and encoding made 50 reads in flight a fifth
 * slower than on the v1 SDK). Only a plain call of an initialized session is taken (no progress
 * token, a tool the factory can answer directly); its answer is the SDK's (same result, same error
 * shape, nothing sent for a cancelled call), its failures reach the session's log as before. Modern
 * stdio connections, and everything else, stay with the SDK.
 */
export class StdioFastCalls {
  private session?: { readonly server: Server; readonly log?: SessionLog };
  private readonly inFlight = new Map<RequestId, AbortController>();

  constructor(
    private readonly servers: McpServerFactory,
    private readonly sessionId: string,
    private readonly send: (message: JSONRPCMessage) => Promise<void>,
    /** Told when a call's work has ended, answered or not (a cancelled call is not answered). */
    private readonly ended: (id: RequestId) => void = () => undefined,
  ) {}

  /** The connection's 2025-era Server, once the SDK built it. */
  serveFor(server: Server): void {
    this.session = { server, log: SessionLog.of(server) };
  }

  /** True when the message was taken here: a fast call, or the cancellation of one. */
  take(message: JSONRPCMessage): boolean {
    if ('method' in message && message.method === 'notifications/cancelled' && !('id' in message)) {
      const cancelled = (message.params as { requestId?: RequestId } | undefined)?.requestId;
      const controller = cancelled === undefined ? undefined : this.inFlight.get(cancelled);
      controller?.abort();
      return controller !== undefined;
    }
    const session = this.session;
    // Before initialize the SDK answers (or refuses) as it always did.
    if (!session || session.server.getClientVersion() === undefined) return false;
    const call = plainToolCall(message);
    if (!call || this.inFlight.has(call.id)) return false;
    const controller = new AbortController();
    const { log } = session;
    const answer = this.servers.directCall(call.params, {
      sessionId: this.sessionId,
      principal: UNRESTRICTED_PRINCIPAL,
      modern: false,
      signal: controller.signal,
      declaresRoots: false,
      // Written to stdout at once, so the log message always goes ahead of the answer, as on the SDK's path.
      onFailure: (failure) => log?.callFailed(failure, (notification) => this.send({ jsonrpc: '2.0', ...notification } as JSONRPCMessage)),
    });
    if (!answer) return false;
    this.inFlight.set(call.id, controller);
    void this.answer(call.id, answer, controller.signal).finally(() => {
      this.inFlight.delete(call.id);
      this.ended(call.id);
    });
    return true;
  }

  /** Stdin ended: calls still running are cancelled, as the SDK aborts its handlers on close. */
  closeAll(): void {
    for (const controller of this.inFlight.values()) controller.abort();
    this.inFlight.clear();
  }

  private async answer(id: RequestId, outcome: Promise<unknown>, signal: AbortSignal): Promise<void> {
    const message = await settleCall(id, outcome);
    // A cancelled request is not answered (MCP cancellation), exactly as the SDK drops its handler's late result.
    if (signal.aborted) return;
    await this.send(message as JSONRPCMessage).catch(() => undefined);
  }
}
