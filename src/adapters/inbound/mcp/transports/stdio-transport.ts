import 'reflect-metadata';
import { randomBytes } from 'node:crypto';
import { inject, injectable } from 'inversify';
import { JSONRPCMessageSchema } from '@modelcontextprotocol/core';
import type { Transport, JSONRPCMessage } from '@modelcontextprotocol/server';
import { serveStdio, type StdioServerHandle } from '@modelcontextprotocol/server/stdio';
import { TOKENS } from '../../../shared/tokens.js';
import type { AppConfig } from '../../../../config/app-config.js';
import type { Logger } from '../../../../domain/ports/logger.port.js';
import { UNRESTRICTED_PRINCIPAL } from '../../../../domain/principal.js';
import { type Admission, AdmissionBudget, type AdmissionLimitName, TOTAL_LIMIT } from './admission-budget.js';
import { BoundedLineReader, type OversizedLine } from './bounded-line-reader.js';
import { serializeMessage } from './message-json.js';
import { requestIdOf, type RequestId } from './request-id-scan.js';
import { REQUEST_TOO_LARGE_RPC_CODE, requestLimitBytes, requestTooLargeMessage } from './request-size.js';
import { McpServerFactory } from '../protocol/server-factory.js';
import { SessionRegistry } from '../protocol/session-registry.js';
import { ModernListen, stdioListens, type StdioListens } from './modern-listen.js';
import { StdioFastCalls } from './stdio-fast-call.js';

/** JSON-RPC server error for a request refused by the admission budget (HTTP answers 503 with the same code). */
const ADMISSION_REFUSED_RPC_CODE = -32000;

/** A request's bytes, held until it is answered or, when the client cancelled it, until its handler ends. */
interface HeldRequest {
  readonly admission: Admission;
  cancelled: boolean;
  ended: boolean;
}

/**
 * Each stdio connection's own session id: the default journal is shared by every server the user
 * runs, so a fixed id would make list_changes `session: "this"` (and an undo's default session)
 * reach the changes of another conversation.
 */
function stdioSessionId(): string {
  return `stdio-${randomBytes(6).toString('hex')}`;
}

/**
 * MCP over stdin/stdout, one JSON-RPC message a line. The read side is ours, not the SDK's: its
 * ReadBuffer throws past 10 MiB and the transport then closes, so one large request silenced the
 * connection for good. Here a line past the request limit is skipped to its newline without being
 * kept (BoundedLineReader), answered with a JSON-RPC error that gives its size, the limit and its id
 * when readable, and the next line is served as usual. A line that is not JSON is answered with a
 * parse error rather than dropped in silence.
 */
export class StdioLineTransport implements Transport {
  onclose?: () => void;
  onerror?: (error: Error) => void;
  onmessage?: (message: JSONRPCMessage) => void;
  /** Shown each message before onmessage; true when it handled it (subscriptions/listen, see ModernListen). */
  intercept?: (message: JSONRPCMessage) => boolean;
  /** Shown each message after its bytes are held (till its answer is sent); true when it answers it (StdioFastCalls). */
  direct?: (message: JSONRPCMessage) => boolean;
  private readonly reader: BoundedLineReader;
  /** The admission of the line being read; a request's moves to `held` until it is answered. */
  private reading?: Admission;
  private refusedBy?: AdmissionLimitName;
  private readonly held = new Map<RequestId, HeldRequest>();
  /** Resolves when stdout drains, while a write waits for it. */
  private drained?: Promise<void>;
  private readonly onData = (chunk: Buffer) => this.reader.push(chunk);
  private readonly onEnd = () => this.reader.end();
  private readonly onError = (error: Error) => this.onerror?.(error);

  constructor(
    private readonly limit: number,
    private readonly budget: AdmissionBudget,
    private readonly stdin: NodeJS.ReadableStream = process.stdin,
    private readonly stdout: NodeJS.WritableStream = process.stdout,
  ) {
    this.reader = new BoundedLineReader(limit, {
      line: (text) => this.line(text),
      oversized: (line) => this.oversized(line),
      admit: (bytes) => this.admit(bytes),
    });
  }

  async start(): Promise<void> {
    this.stdin.on('data', this.onData);
    this.stdin.on('end', this.onEnd);
    this.stdin.on('error', this.onError);
  }

  send(message: JSONRPCMessage): Promise<void> {
    if ('id' in message && !('method' in message) && message.id !== undefined) this.releaseHeld(message.id);
    if (this.stdout.write(`${serializeMessage(message)}\n`)) return Promise.resolve();
    // Every write made while stdout is full waits for the same drain: one listener, however many answers are queued.
    this.drained ??= new Promise((resolve) => {
      this.stdout.once('drain', () => {
        this.drained = undefined;
        resolve();
      });
    });
    return this.drained;
  }

  async close(): Promise<void> {
    this.stdin.off('data', this.onData);
    this.stdin.off('end', this.onEnd);
    this.stdin.off('error', this.onError);
    if (this.stdin.listenerCount('data') === 0) this.stdin.pause();
    for (const id of [...this.held.keys()]) this.releaseHeld(id);
    this.reading?.release();
    this.onclose?.();
  }

  /**
   * A request's handler has ended (the SDK's or the fast path's), answered or not. A cancelled request
   * is never answered, so its bytes go back here; an answered one's go back when its answer is sent.
   */
  handlerEnded(id: RequestId): void {
    const request = this.held.get(id);
    if (!request) return;
    request.ended = true;
    if (request.cancelled) this.releaseHeld(id);
  }

  /** Stdio has one principal; its lines draw on the same budget as HTTP bodies, without waiting (the line is refused). */
  private admit(lineBytes: number): boolean {
    this.reading ??= this.budget.open(UNRESTRICTED_PRINCIPAL.name);
    this.refusedBy = this.reading.growTo(lineBytes);
    if (this.refusedBy === undefined) return true;
    this.reading.release();
    this.reading = undefined;
    return false;
  }

  private releaseHeld(id: RequestId): void {
    this.held.get(id)?.admission.release();
    this.held.delete(id);
  }

  /**
   * Security: a cancelled request keeps its bytes until its handler ends, not just until the cancel
   * arrives: the handler may still hold the request's memory, and a request-and-cancel loop would
   * otherwise pass the budget's bound.
   */
  private cancelHeld(message: JSONRPCMessage): void {
    if (!('method' in message) || message.method !== 'notifications/cancelled' || 'id' in message) return;
    const id = (message.params as { requestId?: RequestId } | undefined)?.requestId;
    const request = id === undefined ? undefined : this.held.get(id);
    if (!request || id === undefined) return;
    request.cancelled = true;
    if (request.ended) this.releaseHeld(id);
  }

  private line(line: string): void {
    const admission = this.reading;
    this.reading = undefined;
    // A request's bytes stay held until its answer is sent; anything else is done with now.
    if (!this.dispatch(line, admission)) admission?.release();
  }

  /** Hands the line on; true when its admission is now held by the request it carries. */
  private dispatch(line: string, admission: Admission | undefined): boolean {
    const text = line.replace(/\r$/, '');
    if (text.trim() === '') return false;
    let json: unknown;
    try {
      json = JSON.parse(text);
    } catch {
      void this.answerError(null, -32700, 'Parse error: the line is not valid JSON');
      return false;
    }
    const parsed = JSONRPCMessageSchema.safeParse(json);
    if (!parsed.success) {
      const id = (json as { id?: unknown } | null)?.id;
      void this.answerError(typeof id === 'string' || typeof id === 'number' ? id : null, -32600, 'Invalid Request: not a JSON-RPC 2.0 message');
      return false;
    }
    const message = parsed.data;
    this.cancelHeld(message);
    // A listen stays open for as long as the client listens: its few bytes are not held till then.
    if (this.intercept?.(message)) return false;
    const isRequest = admission !== undefined && 'id' in message && 'method' in message;
    if (isRequest) {
      this.releaseHeld(message.id);
      this.held.set(message.id, { admission, cancelled: false, ended: false });
    }
    if (!this.direct?.(message)) this.onmessage?.(message);
    return isRequest;
  }

  private oversized(line: OversizedLine): void {
    this.reading?.release();
    this.reading = undefined;
    const id = requestIdOf(line.head.toString('utf8'), line.tail.toString('utf8').replace(/\r$/, '')) ?? null;
    if (line.reason === 'limit') {
      void this.answerError(id, REQUEST_TOO_LARGE_RPC_CODE, requestTooLargeMessage(line.size, this.limit), { size: line.size, limit: this.limit });
      return;
    }
    const limit = this.refusedBy ?? TOTAL_LIMIT;
    this.budget.refused(line.size);
    const message = `Server busy: this ${line.size}-byte request would pass ${limit} (bytes of requests read or held at once); nothing was done, retry when earlier requests are answered`;
    void this.answerError(id, ADMISSION_REFUSED_RPC_CODE, message, { size: line.size, limit });
  }

  private answerError(id: RequestId | null, code: number, message: string, data?: Record<string, unknown>): Promise<void> {
    return this.send({ jsonrpc: '2.0', id, error: { code, message, ...(data ? { data } : {}) } } as unknown as JSONRPCMessage);
  }
}

/** One MCP session over stdin/stdout. stdout belongs to the protocol: logs go to stderr. */
@injectable()
export class StdioServer {
  private connection?: StdioServerHandle;
  private listens?: StdioListens;
  private fast?: StdioFastCalls;

  constructor(
    @inject(TOKENS.Config) private readonly config: AppConfig,
    @inject(McpServerFactory) private readonly servers: McpServerFactory,
    @inject(SessionRegistry) private readonly sessions: SessionRegistry,
    @inject(TOKENS.Logger) private readonly logger: Logger,
    @inject(AdmissionBudget) private readonly budget: AdmissionBudget,
    @inject(ModernListen) private readonly listen: ModernListen,
  ) {}

  /**
   * Serves until stdin ends; `closed` resolves then. The first message picks the protocol: an
   * `initialize` opens a 2025-era session as before; a request carrying the 2026-07-28 envelope
   * (or a `server/discover` probe followed by one) pins the connection to the modern era.
   */
  async start(): Promise<{ closed: Promise<void> }> {
    const sessionId = stdioSessionId();
    const transport = new StdioLineTransport(requestLimitBytes(this.config.settings.maxFileSize), this.budget);
    // The local operator's connection: its listens see what its tools see.
    const listens = stdioListens(this.listen, UNRESTRICTED_PRINCIPAL, (message) => void transport.send(message as unknown as JSONRPCMessage).catch(() => undefined));
    this.listens = listens;
    transport.intercept = (message) => listens.take(message);
    const fast = new StdioFastCalls(this.servers, sessionId, (message) => transport.send(message), (id) => transport.handlerEnded(id));
    this.fast = fast;
    transport.direct = (message) => fast.take(message);
    this.connection = serveStdio(
      (context) => {
        // Called once for the era the client opened with (twice when a discover probe falls back to initialize).
        const server = this.servers.create(sessionId);
        // A cancelled request is never answered: its bytes go back when its handler ends.
        server.onHandlerEnd = (id) => transport.handlerEnded(id);
        if (context.era === 'legacy' && !this.config.clientRoots) {
          // The operator's choice of folders stands; the client's are never asked for.
          server.oninitialized = () => {
            if (server.getClientCapabilities()?.roots) {
              this.logger.info('client roots ignored: the server was started with DIR arguments or a config file');
            }
          };
        }
        this.sessions.add({ id: sessionId, server, transport });
        if (context.era === 'legacy') fast.serveFor(server);
        return server;
      },
      { transport, onerror: (error) => this.logger.warn('stdio message refused', { error: error.message }) },
    );
    const closed = new Promise<void>((resolve) => {
      process.stdin.once('end', () => {
        void this.stop().then(resolve);
      });
    });
    this.logger.info('mcp-filesystem serving on stdio', {
      address: 'stdio',
      roots: this.config.roots.map((root) => root.name),
      config_file: this.config.configFile,
    });
    return { closed };
  }

  async stop(): Promise<void> {
    this.listens?.closeAll();
    this.fast?.closeAll();
    await this.connection?.close();
    await this.sessions.closeAll();
  }
}
