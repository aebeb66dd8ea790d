import 'reflect-metadata';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { inject, injectable } from 'inversify';
import Koa from 'koa';
import { TOKENS } from '../../../composition/tokens.js';
import type { AppConfig } from '../../../config/app-config.js';
import type { Logger } from '../../../domain/ports/logger.port.js';
import { McpHttpEndpoint, MCP_PATH } from '../mcp/http-transport.js';
import { SessionRegistry } from '../mcp/session-registry.js';
import { HttpAuthentication } from './auth/http-authentication.js';
import type { SessionStateStore } from '../../outbound/session-state-store.js';
import { healthRouter } from './health-route.js';
import { metricsRouter } from './metrics-route.js';
import type { PrometheusMetrics } from '../../outbound/prometheus-metrics.js';
import { hostGuard } from './host-guard.js';

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
    @inject(TOKENS.Metrics) private readonly metrics: PrometheusMetrics,
  ) {
    metrics.trackOpenSessions(() => sessions.size);
  }

  app(): Koa {
    const app = new Koa();
    app.use(async (ctx, next) => {
      try {
        await next();
      } catch (error) {
        // Never echo an exception to a client: messages may carry host paths.
        this.logger.error('HTTP request failed', { error: String(error), stack: error instanceof Error ? error.stack : undefined });
        ctx.status = 500;
        ctx.type = 'text/plain';
        ctx.body = 'internal server error';
      }
    });
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
    // Security: everything after this point (the MCP endpoint) needs a valid bearer token when auth is on.
    const guard = this.auth.guard();
    if (guard) app.use(guard);
    const mcp = this.endpoint.router();
    app.use(mcp.routes());
    app.use(mcp.allowedMethods());
    return app;
  }

  async start(): Promise<ListeningAddress> {
    if (this.server) throw new Error('the HTTP server is already started');
    this.auth.warnIfUnauthenticated();
    const server = createServer(this.app().callback());
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
    await this.sessions.closeAll();
    const server = this.server;
    if (!server) return;
    this.server = undefined;
    await new Promise<void>((resolve) => {
      server.close(() => resolve());
      server.closeAllConnections();
    });
    this.logger.info('mcp-filesystem stopped');
  }
}
