import 'reflect-metadata';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { inject, injectable, optional } from 'inversify';
import Koa from 'koa';
import { TOKENS } from '../../shared/tokens.js';
import type { AppConfig } from '../../../config/app-config.js';
import type { Logger } from '../../../domain/ports/logger.port.js';
import { McpHttpEndpoint, MCP_PATH } from '../mcp/transports/http-transport.js';
import { SessionRegistry } from '../mcp/protocol/session-registry.js';
import { AdmissionBudget } from '../mcp/transports/admission-budget.js';
import { HttpAuthentication } from './auth/http-authentication.js';
import type { SessionStateStore } from '../../shared/session-state-store.port.js';
import { healthRouter } from './health-route.js';
import { metricsRouter } from './metrics-route.js';
import type { ServerMetrics } from '../../shared/metrics.port.js';
import { hostGuard, hostJudge } from './host-guard.js';
import { INTERNAL_ERROR_BODY, internalErrors } from './internal-errors.js';
import { logRefusal } from './auth/bearer-middleware.js';
import { UNRESTRICTED_PRINCIPAL, type Principal } from '../../../domain/principal.js';
import { writeJsonRpcError } from '../mcp/transports/sse-stream.js';
import { WatchBudget } from '../../../domain/watch-budget.js';
import { ReviewApi } from '../review/review-api.js';
import { reviewPageRouter } from '../review/review-page.js';

const LANE_METHODS: ReadonlySet<string> = new Set(['POST', 'GET', 'DELETE']);

/** The path of a request target, without its query. */
function pathOf(url: string | undefined): string {
  if (url === undefined) return '';
  const query = url.indexOf('?');
  return query === -1 ? url : url.slice(0, query);
}

/** How long an idle keep-alive connection stays open (Node's default is 5 s). */
const KEEP_ALIVE_MS = 65_000;

export interface ListeningAddress {
  readonly host: string;
  readonly port: number;
  /** e.g. http://127.0.0.1:8091 */
  readonly baseUrl: string;
}

/** The Koa app behind the Streamable HTTP transport, and its listening socket. */
@injectable()
export class HttpServer {
  private server?: Server;

  constructor(
    @inject(TOKENS.Config) private readonly config: AppConfig,
    @inject(McpHttpEndpoint) private readonly endpoint: McpHttpEndpoint,
    @inject(SessionRegistry) private readonly sessions: SessionRegistry,
    @inject(TOKENS.SessionStore) private readonly store: SessionStateStore,
    @inject(TOKENS.Logger) private readonly logger: Logger,
    @inject(HttpAuthentication) private readonly auth: HttpAuthentication,
    @inject(TOKENS.Metrics) private readonly metrics: ServerMetrics,
    @inject(AdmissionBudget) budget: AdmissionBudget,
    @inject(WatchBudget) @optional() watches?: WatchBudget,
    @inject(ReviewApi) @optional() private readonly review?: ReviewApi,
  ) {
    metrics.trackOpenSessions(() => sessions.size);
    metrics.trackInflightRequestBytes(() => budget.inFlight);
    if (watches) metrics.trackWatches(() => watches.inUse);
    budget.observe(metrics);
  }

  app(): Koa {
    const app = new Koa();
    app.use(internalErrors((error) => this.logFailure(error)));
    // The health check stays outside the Host guard: it reveals nothing, and container
    // health probes address the server by names nobody lists in allowed_hosts.
    const health = healthRouter(this.store);
    app.use(health.routes());
    app.use(health.allowedMethods());
    app.use(hostGuard(this.config.allowedHosts));
    const metadata = this.auth.metadataRouter();
    app.use(metadata.routes());
    if (this.config.metrics?.enabled ?? true) {
      app.use(metricsRouter(this.metrics, (ctx) => this.auth.allowsMetrics(ctx)).routes());
    }
    // The /changes page holds no data: its API, after the guard, asks for the token.
    if (this.review) app.use(reviewPageRouter().routes());
    // Security: everything after this point (the MCP endpoint, the /changes API) needs a valid bearer token when auth is on.
    const guard = this.auth.guard();
    if (guard) app.use(guard);
    if (this.review) app.use(this.review.router().routes());
    const mcp = this.endpoint.router();
    app.use(mcp.routes());
    app.use(mcp.allowedMethods());
    return app;
  }

  /**
   * The lean lane: POST, GET and DELETE on /mcp itself skip Koa, whose context, middleware chain and
   * router cost about a tenth of the server's CPU for a small call. Everything else goes to `app()`.
   * Security: the lane makes the same checks in the same order as the Koa app does for /mcp: the Host
   * and Origin headers (hostJudge), then the bearer token (the same judge as the Koa guard), and the
   * endpoint answers every error itself; the tests send the same requests down both ways.
   * Returns whether it took the request.
   */
  mcpLane(): (req: IncomingMessage, res: ServerResponse) => boolean {
    const judgeHost = hostJudge(this.config.allowedHosts);
    const judgeBearer = this.auth.bearerJudge();
    const serve = async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
      const refusal = judgeHost(req.headers.host ?? '', req.headers.origin ?? '');
      if (refusal !== undefined) return writeJsonRpcError(res, 403, -32000, refusal);
      let caller: Principal = UNRESTRICTED_PRINCIPAL;
      if (judgeBearer) {
        const verdict = await judgeBearer(req.headers.authorization ?? '');
        if ('refusal' in verdict) {
          const { refusal: refused } = verdict;
          logRefusal(this.logger, refused, { method: req.method, path: MCP_PATH, remote: req.socket.remoteAddress });
          return writeJsonRpcError(res, refused.status, refused.body.error.code, refused.body.error.message, { 'www-authenticate': refused.wwwAuthenticate });
        }
        caller = verdict.principal;
      }
      await this.endpoint.serve({ req, res, caller });
    };
    return (req, res) => {
      if (!LANE_METHODS.has(req.method ?? '') || pathOf(req.url) !== MCP_PATH) return false;
      serve(req, res).catch((error: unknown) => {
        this.logFailure(error);
        if (res.headersSent) return;
        res.writeHead(500, { 'content-type': 'text/plain; charset=utf-8' });
        res.end(INTERNAL_ERROR_BODY);
      });
      return true;
    };
  }

  /** Never echo an exception to a client: messages may carry host paths. */
  private logFailure(error: unknown): void {
    this.logger.error('HTTP request failed', { error: String(error), stack: error instanceof Error ? error.stack : undefined });
  }

  async start(): Promise<ListeningAddress> {
    if (this.server) throw new Error('the HTTP server is already started');
    this.auth.warnIfUnauthenticated();
    const koa = this.app().callback();
    const lane = this.mcpLane();
    const server = createServer((req, res) => {
      if (!lane(req, res)) void koa(req, res);
    });
    // An idle keep-alive connection outlives a client's or a proxy's wish to reuse it (load balancers
    // idle at 60 s): closing first at Node's 5 s races a request already sent on it (ECONNRESET).
    server.keepAliveTimeout = KEEP_ALIVE_MS;
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(this.config.port, this.config.host, () => {
        server.off('error', reject);
        resolve();
      });
    });
    this.server = server;
    this.sessions.startSweeping();
    const { port } = server.address() as AddressInfo;
    const hostForUrl = this.config.host.includes(':') ? `[${this.config.host}]` : this.config.host;
    const address = { host: this.config.host, port, baseUrl: `http://${hostForUrl}:${port}` };
    // NFR-018: root names only; host paths stay out of the log.
    this.logger.info('mcp-filesystem listening', {
      address: `${hostForUrl}:${port}`,
      url: `${address.baseUrl}${MCP_PATH}`,
      roots: this.config.roots.map((root) => root.name),
      config_file: this.config.configFile,
      allowed_hosts: this.config.allowedHosts,
      auth: this.config.auth?.mode ?? 'none',
    });
    return address;
  }

  /** Closes this process's sessions (their SSE streams too; the store keeps them), then stops accepting connections. */
  async stop(): Promise<void> {
    const server = this.server;
    this.server = undefined;
    // No new connection while the sessions close; the open ones are cut after.
    const closed = server ? new Promise<void>((resolve) => server.close(() => resolve())) : undefined;
    await this.sessions.closeAll();
    if (!server) return;
    server.closeAllConnections();
    await closed;
    this.logger.info('mcp-filesystem stopped');
  }
}
