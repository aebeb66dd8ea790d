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

/**
 * Security: DNS rebinding. A web page can make a browser send requests to 127.0.0.1 under
 * the attacker's own host name; refusing unknown Host names (and unknown browser Origins)
 * keeps such pages away from the file tools. `*` in the list switches the check off.
 * The judgement of a request's Host and Origin headers: the reason to refuse it, or undefined.
 */
export function hostJudge(allowedHosts: readonly string[]): (host: string, origin: string) => string | undefined {
  const allowed = new Set(allowedHosts.map((name) => name.toLowerCase()));
  const isAllowed = (name: string | undefined) => allowed.has(ANY_HOST) || (name !== undefined && allowed.has(name));
  return (host, origin) => {
    if (!isAllowed(hostnameOf(host))) return `Forbidden: Host "${host}" is not allowed`;
    if (origin !== '' && !isAllowed(originHostnameOf(origin))) return `Forbidden: Origin "${origin}" is not allowed`;
    return undefined;
  };
}

/** hostJudge as Koa middleware: a refused request gets 403 and a JSON-RPC error body. */
export function hostGuard(allowedHosts: readonly string[]): Koa.Middleware {
  const judge = hostJudge(allowedHosts);
  return async (ctx, next) => {
    const refusal = judge(ctx.get('host'), ctx.get('origin'));
    if (refusal !== undefined) {
      ctx.status = 403;
      ctx.body = { jsonrpc: '2.0', error: { code: -32000, message: refusal }, id: null };
      return;
    }
    await next();
  };
}
