import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import Koa from 'koa';
import type { Logger } from '../../../domain/ports/logger.port.js';
import { bearerAuth, bearerJudge } from '../http/auth/bearer-middleware.js';
import { hostGuard } from '../http/host-guard.js';
import { internalErrors } from '../http/internal-errors.js';
import { OneTimeTokenAuthenticator } from './one-time-token.js';
import type { ReviewApi } from './review-api.js';
import { REVIEW_PAGE_PATH, reviewPageRouter } from './review-page.js';

const LOOPBACK = '127.0.0.1';
const LOOPBACK_NAMES = ['localhost', '127.0.0.1', '[::1]'];

/**
 * `mcp-filesystem review`: the /changes page alone, on loopback, for the local operator (stdio users:
 * the journal on disk is the same). Security: only loopback names pass the Host/Origin guard (DNS
 * rebinding), and the API takes only this run's random token, handed over in the URL's fragment,
 * which browsers never send to a server, so it reaches no log.
 */
export class ReviewServer {
  private server?: Server;
  private readonly authenticator = new OneTimeTokenAuthenticator();

  constructor(
    private readonly api: ReviewApi,
    private readonly logger: Logger,
  ) {}

  app(): Koa {
    const app = new Koa();
    app.use(internalErrors((error) => this.logger.error('review request failed', { error: String(error) })));
    app.use(hostGuard(LOOPBACK_NAMES));
    app.use(reviewPageRouter().routes());
    app.use(bearerAuth(bearerJudge(this.authenticator, { scopes: [] }), this.logger));
    app.use(this.api.router().routes());
    return app;
  }

  /** Listens on loopback (port 0: a free one); returns the URL to open, the token in its fragment. */
  async start(port: number): Promise<string> {
    const server = createServer(this.app().callback());
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(port, LOOPBACK, () => resolve());
    });
    this.server = server;
    const bound = (server.address() as AddressInfo).port;
    this.logger.info('mcp-filesystem review listening', { url: `http://${LOOPBACK}:${bound}${REVIEW_PAGE_PATH}` });
    return `http://${LOOPBACK}:${bound}${REVIEW_PAGE_PATH}#token=${this.authenticator.token}`;
  }

  async stop(): Promise<void> {
    const server = this.server;
    this.server = undefined;
    if (!server) return;
    const closed = new Promise<void>((resolve) => server.close(() => resolve()));
    server.closeAllConnections();
    await closed;
  }
}
