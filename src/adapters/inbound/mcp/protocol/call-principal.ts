import { AsyncLocalStorage } from 'node:async_hooks';
import { injectable } from 'inversify';
import { type Principal, type PrincipalContext, UNRESTRICTED_PRINCIPAL } from '../../../../domain/principal.js';

/**
 * The principal of the tool call in progress, carried along the call's async chain. The MCP
 * server factory runs every tools/call inside `run` with the principal that owns the session,
 * so the domain's root lookups (PathPolicy) see that principal's grant and nothing else.
 * Outside a call (start-up) the unrestricted view applies, as for stdio.
 */
@injectable()
export class AsyncLocalPrincipalContext implements PrincipalContext {
  private readonly storage = new AsyncLocalStorage<Principal>();
  /** Whether a call of a principal other than the unrestricted one has run in this process. */
  private restrictedSeen = false;

  current(): Principal {
    return this.storage.getStore() ?? UNRESTRICTED_PRINCIPAL;
  }

  run<T>(principal: Principal, action: () => T): T {
    // Fast path: while every call is the unrestricted principal's (stdio, `auth.mode: none`), no
    // store is needed: current() gives that principal outside any store. AsyncLocalStorage turns
    // on promise hooks at its first run, and those cost every promise of every call (4% of a grep).
    // Security: no store exists until a restricted principal's first call, and from then on every
    // call, the unrestricted included, runs in its own store; so a call never sees another's.
    if (principal === UNRESTRICTED_PRINCIPAL && !this.restrictedSeen) return action();
    this.restrictedSeen = true;
    return this.storage.run(principal, action);
  }
}
