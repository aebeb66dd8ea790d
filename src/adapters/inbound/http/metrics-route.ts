import Router from '@koa/router';
import type Koa from 'koa';
import type { ServerMetrics } from '../../shared/metrics.port.js';

export const METRICS_PATH = '/metrics';

/** GET /metrics in the Prometheus text format; `allowed` decides who may read it (auth on: loopback or a token). */
export function metricsRouter(metrics: ServerMetrics, allowed: (ctx: Koa.Context) => Promise<boolean>): Router {
  const router = new Router();
  router.get(METRICS_PATH, async (ctx) => {
    if (!(await allowed(ctx))) {
      ctx.status = 401;
      ctx.set('WWW-Authenticate', 'Bearer realm="mcp-filesystem"');
      ctx.body = 'a bearer token is required for /metrics from outside the host\n';
      return;
    }
    ctx.type = metrics.contentType();
    ctx.body = await metrics.render();
  });
  return router;
}
