import type Koa from 'koa';

export const INTERNAL_ERROR_BODY = 'internal server error';

/** A request that throws gets 500 and a fixed body; the error goes to `log` only (its message may carry host paths). */
export function internalErrors(log: (error: unknown) => void): Koa.Middleware {
  return async (ctx, next) => {
    try {
      await next();
    } catch (error) {
      log(error);
      ctx.status = 500;
      ctx.type = 'text/plain';
      ctx.body = INTERNAL_ERROR_BODY;
    }
  };
}
