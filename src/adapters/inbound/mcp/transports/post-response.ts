import type { ServerResponse } from 'node:http';
import type { JSONRPCMessage, RequestId } from '@modelcontextprotocol/server';
import { serializeMessage, serializeMessages } from './message-json.js';
import { SseStream } from './sse-stream.js';

/**
 * The HTTP response to one POST carrying JSON-RPC requests. It stays undecided while nothing
 * but answers arrive, and is written as one JSON body (an object, or an array for a batch, in
 * request order) once every request is answered: the cheapest answer for the common call.
 * The first message that is not an answer (a progress notification, a server request) turns
 * it into an SSE stream, which carries the answers held so far and everything after, and ends
 * when the last request is answered or abandoned (cancelled by the client).
 */
export class PostResponse {
  private readonly pending: Set<RequestId>;
  private readonly answers = new Map<RequestId, JSONRPCMessage>();
  private stream?: SseStream;
  private done = false;

  constructor(
    private readonly res: ServerResponse,
    private readonly order: readonly RequestId[],
    private readonly sessionId: string | undefined,
    private readonly onDone: (ids: readonly RequestId[]) => void,
  ) {
    this.pending = new Set(order);
    // A client that hangs up gets nothing more; what is still owed to it is dropped.
    res.once('close', () => this.finish());
  }

  /** A notification or request the server sends in the course of one of this POST's requests. */
  notify(message: JSONRPCMessage): void {
    if (this.done) return;
    if (!this.stream) {
      this.stream = new SseStream(this.res, this.sessionId);
      for (const id of this.order) {
        const held = this.answers.get(id);
        if (held) this.stream.event(held);
      }
      this.answers.clear();
    }
    this.stream.event(message);
  }

  answer(id: RequestId, message: JSONRPCMessage): void {
    if (!this.pending.delete(id)) return;
    if (this.stream) this.stream.event(message);
    else this.answers.set(id, message);
    if (this.pending.size === 0) this.complete();
  }

  /** The client cancelled this request: no answer will come, and the response must not wait for one. */
  abandon(id: RequestId): void {
    if (this.pending.delete(id) && this.pending.size === 0) this.complete();
  }

  /** Ends the response now (the session closed). */
  close(): void {
    if (this.done) return;
    (this.stream ?? new SseStream(this.res, this.sessionId)).end();
    this.finish();
  }

  private complete(): void {
    if (this.stream) {
      this.stream.end();
    } else if (this.answers.size === 0) {
      // Every request was cancelled: an empty event stream tells the client nothing is coming.
      new SseStream(this.res, this.sessionId).end();
    } else {
      const answers = this.order.map((id) => this.answers.get(id)).filter((answer) => answer !== undefined);
      const body = this.order.length === 1 ? serializeMessage(answers[0]) : serializeMessages(answers);
      const headers: Record<string, string | number> = { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) };
      if (this.sessionId !== undefined) headers['mcp-session-id'] = this.sessionId;
      this.res.writeHead(200, headers);
      this.res.end(body);
    }
    this.finish();
  }

  private finish(): void {
    if (this.done) return;
    this.done = true;
    this.onDone(this.order);
  }
}
