import Router from '@koa/router';

const HEALTH_PATH = '/health';

/** FR-019: unconditional and cheap; it checks no file system, so it only says the process serves HTTP. */
export function healthRouter(): Router {
  const router = new Router();
  router.get(HEALTH_PATH, (ctx) => {
    ctx.type = 'text/plain';
    ctx.body = 'ok';
  });
  return router;
}
