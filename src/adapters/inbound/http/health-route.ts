import Router from '@koa/router';

const HEALTH_PATH = '/health';
const READY_PATH = '/ready';

export interface StoreReachability {
  reachable(): boolean;
}

/**
 * FR-019: unconditional and cheap; it checks no file system. /health is liveness: always 200,
 * and says `degraded` while the session store is down, so an orchestrator does not restart a
 * process that would recover by itself. /ready is readiness: 503 while the store is down, so a
 * load balancer sends the session's requests to a replica that can serve them.
 */
export function healthRouter(store: StoreReachability): Router {
  const router = new Router();
  router.get(HEALTH_PATH, (ctx) => {
    ctx.type = 'text/plain';
    ctx.body = store.reachable() ? 'ok' : 'degraded: session store unreachable';
  });
  router.get(READY_PATH, (ctx) => {
    const ready = store.reachable();
    ctx.status = ready ? 200 : 503;
    ctx.type = 'text/plain';
    ctx.body = ready ? 'ready' : 'not ready: session store unreachable';
  });
  return router;
}
