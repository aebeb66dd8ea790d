import type { IncomingMessage, ServerResponse } from 'node:http';
import { JSONRPCMessageSchema } from '@modelcontextprotocol/core';
import { isInitializeRequest, isJsonContentType, SUPPORTED_PROTOCOL_VERSIONS } from '@modelcontextprotocol/server';
import type { Transport, TransportSendOptions, JSONRPCMessage, MessageExtraInfo, RequestId } from '@modelcontextprotocol/server';
import { PostResponse } from './post-response.js';

/** The most messages one POST may batch (the v1 SDK's limit, which the v2 SDK keeps internal). */
const MAX_BATCH_SIZE = 100;
import { SseStream, writeJsonRpcError } from './sse-stream.js';

export interface NodeStreamableHttpTransportOptions {
  /** The id this transport answers to; it is announced by the initialize answer. */
  readonly sessionId: string;
  /**
   * True for a session initialized elsewhere (another replica, or this process before a
   * restart) whose existence the session store vouched for: no handshake will come.
   */
  readonly initialized?: boolean;
  /** Runs when an initialize request is accepted, before it reaches the Server. */
  readonly onsessioninitialized?: (sessionId: string) => void | Promise<void>;
  /** Runs on DELETE, before the 200 and the transport's close. */
  readonly onsessionclosed?: (sessionId: string) => void | Promise<void>;
}

type Message = JSONRPCMessage & { id?: RequestId; method?: string; params?: { requestId?: RequestId } };

/** The JSON-RPC shapes, told apart by their members once JSONRPCMessageSchema accepted the message. */
const isRequest = (message: Message): boolean => message.method !== undefined && message.id !== undefined;
const isAnswer = (message: Message): boolean => message.method === undefined;

/**
 * Streamable HTTP, server side, on node:http's request and response: the SDK's `Transport`
 * under the SDK's `Server`, without the SDK transport's conversion of every request into a
 * web-standard Request and Response and back. It keeps that transport's header checks, status
 * codes and messages (406 Accept, 415 Content-Type, 400 batch and initialize rules, 400/404
 * session id, 400 protocol version, 202 for notifications only, 405), answers a POST as JSON
 * unless the server sends notifications for it (then SSE, see PostResponse), serves one
 * standalone GET event stream, and ends a POST's response when its request is cancelled (the
 * SDK's would stay open, waiting for an answer the Server never sends).
 */
export class NodeStreamableHttpTransport implements Transport {
  onmessage?: (message: JSONRPCMessage, extra?: MessageExtraInfo) => void;
  onclose?: () => void;
  onerror?: (error: Error) => void;
  /** Undefined until the session is initialized: a refused handshake leaves no session behind. */
  sessionId?: string;

  private closed = false;
  private readonly responses = new Map<RequestId, PostResponse>();
  private standalone?: SseStream;

  constructor(private readonly options: NodeStreamableHttpTransportOptions) {
    if (options.initialized) this.sessionId = options.sessionId;
  }

  async start(): Promise<void> {}

  /** Serves one HTTP request of this session; a POST's body comes parsed (the endpoint read and size-checked it). */
  async handleRequest(req: IncomingMessage, res: ServerResponse, parsedBody?: unknown): Promise<void> {
    if (this.closed) return writeJsonRpcError(res, 404, -32001, 'Session not found');
    switch (req.method) {
      case 'POST':
        return this.post(req, res, parsedBody);
      case 'GET':
        return this.get(req, res);
      case 'DELETE':
        return this.delete(req, res);
      default:
        return writeJsonRpcError(res, 405, -32000, 'Method not allowed.', { allow: 'GET, POST, DELETE' });
    }
  }

  async send(message: JSONRPCMessage, options?: TransportSendOptions): Promise<void> {
    const outgoing = message as Message;
    const answer = isAnswer(outgoing);
    const requestId = answer ? outgoing.id : options?.relatedRequestId;
    if (requestId === undefined) {
      if (answer) throw new Error('Cannot send a response on a standalone SSE stream unless resuming a previous client request');
      // Without an open GET stream a server-initiated message has nowhere to go (no event store).
      this.standalone?.event(message);
      return;
    }
    // A request whose client hung up or cancelled has no response left to write to.
    const response = this.responses.get(requestId);
    if (!response) return;
    if (answer) response.answer(requestId, message);
    else response.notify(message);
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    for (const response of new Set(this.responses.values())) response.close();
    this.responses.clear();
    this.standalone?.end();
    this.standalone = undefined;
    this.onclose?.();
  }

  private async post(req: IncomingMessage, res: ServerResponse, body: unknown): Promise<void> {
    const accept = req.headers.accept;
    if (!accept?.includes('application/json') || !accept.includes('text/event-stream')) {
      return this.refuse(res, 406, -32000, 'Not Acceptable: Client must accept both application/json and text/event-stream');
    }
    if (!isJsonContentType(req.headers['content-type'])) {
      return this.refuse(res, 415, -32000, 'Unsupported Media Type: Content-Type must be application/json');
    }
    if (Array.isArray(body) && body.length > MAX_BATCH_SIZE) {
      return this.refuse(res, 400, -32600, `Invalid Request: Batch must not exceed ${MAX_BATCH_SIZE} messages`);
    }
    let messages: Message[];
    try {
      messages = (Array.isArray(body) ? body : [body]).map((message) => JSONRPCMessageSchema.parse(message) as Message);
    } catch {
      return this.refuse(res, 400, -32700, 'Parse error: Invalid JSON-RPC message');
    }
    const initializing = messages.some((message) => message.method === 'initialize' && isInitializeRequest(message));
    if (initializing) {
      if (this.sessionId !== undefined) return this.refuse(res, 400, -32600, 'Invalid Request: Server already initialized');
      if (messages.length > 1) return this.refuse(res, 400, -32600, 'Invalid Request: Only one initialization request is allowed');
      this.sessionId = this.options.sessionId;
      await this.options.onsessioninitialized?.(this.sessionId);
    } else if (!this.acceptsSession(req, res)) {
      return;
    }
    // close() may have run while the session was being recorded.
    if (this.closed) return writeJsonRpcError(res, 404, -32001, 'Session not found');

    const extra: MessageExtraInfo = {};
    const requestIds = messages.filter(isRequest).map((message) => message.id as RequestId);
    if (requestIds.length === 0) {
      this.dispatch(messages, extra);
      res.writeHead(202).end();
      return;
    }
    const response = new PostResponse(res, requestIds, this.sessionId, (ids) => {
      for (const id of ids) if (this.responses.get(id) === response) this.responses.delete(id);
    });
    for (const id of requestIds) this.responses.set(id, response);
    this.dispatch(messages, extra);
  }

  private dispatch(messages: readonly Message[], extra: MessageExtraInfo): void {
    for (const message of messages) {
      this.onmessage?.(message, extra);
      // The Server drops the answer of a request it cancels (any id but 0, as Protocol); its POST must not wait for it.
      if (message.method === 'notifications/cancelled' && message.params?.requestId) {
        this.responses.get(message.params.requestId)?.abandon(message.params.requestId);
      }
    }
  }

  private get(req: IncomingMessage, res: ServerResponse): void {
    if (!req.headers.accept?.includes('text/event-stream')) {
      return this.refuse(res, 406, -32000, 'Not Acceptable: Client must accept text/event-stream');
    }
    if (!this.acceptsSession(req, res)) return;
    if (this.standalone) return this.refuse(res, 409, -32000, 'Conflict: Only one SSE stream is allowed per session');
    const stream = new SseStream(res, this.sessionId);
    this.standalone = stream;
    res.once('close', () => {
      if (this.standalone === stream) this.standalone = undefined;
    });
  }

  private async delete(req: IncomingMessage, res: ServerResponse): Promise<void> {
    if (!this.acceptsSession(req, res)) return;
    try {
      await this.options.onsessionclosed?.(this.options.sessionId);
      res.writeHead(200).end();
    } finally {
      await this.close();
    }
  }

  /** The SDK transport's session and protocol-version checks for every request but initialize. */
  private acceptsSession(req: IncomingMessage, res: ServerResponse): boolean {
    if (this.sessionId === undefined) {
      this.refuse(res, 400, -32000, 'Bad Request: Server not initialized');
      return false;
    }
    const sessionId = req.headers['mcp-session-id'];
    if (!sessionId) {
      this.refuse(res, 400, -32000, 'Bad Request: Mcp-Session-Id header is required');
      return false;
    }
    if (sessionId !== this.sessionId) {
      this.refuse(res, 404, -32001, 'Session not found');
      return false;
    }
    const version = req.headers['mcp-protocol-version'];
    if (version !== undefined && !SUPPORTED_PROTOCOL_VERSIONS.includes(String(version))) {
      const message = `Bad Request: Unsupported protocol version: ${String(version)} (supported versions: ${SUPPORTED_PROTOCOL_VERSIONS.join(', ')})`;
      this.refuse(res, 400, -32000, message);
      return false;
    }
    return true;
  }

  private refuse(res: ServerResponse, status: number, code: number, message: string): void {
    this.onerror?.(new Error(message));
    writeJsonRpcError(res, status, code, message);
  }
}
