import type Koa from 'koa';

const ANY_HOST = '*';

/** The host name of a Host header value, lower-cased, without the port (`[::1]:8091` -> `[::1]`). */
export function hostnameOf(hostHeader: string): string | undefined {
  const value = hostHeader.trim().toLowerCase();
  if (value === '') return undefined;
  if (value.startsWith('[')) {
    const end = value.indexOf(']');
    return end < 0 ? undefined : value.slice(0, end + 1);
  }
  const colon = value.indexOf(':');
  return colon < 0 ? value : value.slice(0, colon);
}

/** The host name of an Origin header (`http://localhost:3000` -> `localhost`); undefined for `null` or garbage. */
export function originHostnameOf(origin: string): string | undefined {
  try {
    const url = new URL(origin);
    return url.hostname === '' ? undefined : url.hostname.toLowerCase();
  } catch {
    return undefined;
  }
}

function forbidden(ctx: Koa.Context, message: string): void {
  ctx.status = 403;
  ctx.body = { jsonrpc: '2.0', error: { code: -32000, message }, id: null };
}

/**
 * Security: DNS rebinding. A web page can make a browser send requests to 127.0.0.1 under
 * the attacker's own host name; refusing unknown Host names (and unknown browser Origins)
 * keeps such pages away from the file tools. `*` in the list switches the check off.
 */
export function hostGuard(allowedHosts: readonly string[]): Koa.Middleware {
  const allowed = new Set(allowedHosts.map((host) => host.toLowerCase()));
  const isAllowed = (name: string | undefined) => allowed.has(ANY_HOST) || (name !== undefined && allowed.has(name));
  return async (ctx, next) => {
    const host = hostnameOf(ctx.get('host'));
    if (!isAllowed(host)) return forbidden(ctx, `Forbidden: Host "${ctx.get('host')}" is not allowed`);
    const origin = ctx.get('origin');
    if (origin !== '' && !isAllowed(originHostnameOf(origin))) return forbidden(ctx, `Forbidden: Origin "${origin}" is not allowed`);
    await next();
  };
}
