import { AsyncLocalStorage } from 'node:async_hooks';
import { injectable } from 'inversify';
import { type Principal, type PrincipalContext, UNRESTRICTED_PRINCIPAL } from '../../../domain/principal.js';

/**
 * The principal of the tool call in progress, carried along the call's async chain. The MCP
 * server factory runs every tools/call inside `run` with the principal that owns the session,
 * so the domain's root lookups (PathPolicy) see that principal's grant and nothing else.
 * Outside a call (start-up) the unrestricted view applies, as for stdio.
 */
@injectable()
export class AsyncLocalPrincipalContext implements PrincipalContext {
  private readonly storage = new AsyncLocalStorage<Principal>();

  current(): Principal {
    return this.storage.getStore() ?? UNRESTRICTED_PRINCIPAL;
  }

  run<T>(principal: Principal, action: () => T): T {
    return this.storage.run(principal, action);
  }
}
