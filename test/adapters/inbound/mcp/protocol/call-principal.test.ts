import { AsyncLocalStorage } from 'node:async_hooks';
import { jest } from '@jest/globals';
import { AsyncLocalPrincipalContext } from '../../../../../src/adapters/inbound/mcp/protocol/call-principal.js';
import { type Principal, UNRESTRICTED_PRINCIPAL } from '../../../../../src/domain/principal.js';

const alice: Principal = { name: 'alice', roots: ['docs'], readOnly: true };
const bob: Principal = { name: 'bob', readOnly: false };
const tick = () => new Promise<void>((resolve) => setImmediate(resolve));

/** Each call sees its own principal along its async chain, however the calls interleave. */
async function seenAcrossAwaits(context: AsyncLocalPrincipalContext, principal: Principal): Promise<Principal[]> {
  return context.run(principal, async () => {
    const seen = [context.current()];
    await tick();
    seen.push(context.current());
    await Promise.resolve();
    seen.push(context.current());
    return seen;
  });
}

describe('AsyncLocalPrincipalContext', () => {
  afterEach(() => jest.restoreAllMocks());

  it('outside any call, and in calls of the unrestricted principal alone, gives the unrestricted principal without a store', async () => {
    const run = jest.spyOn(AsyncLocalStorage.prototype, 'run');
    const context = new AsyncLocalPrincipalContext();
    expect(context.current()).toBe(UNRESTRICTED_PRINCIPAL);
    const seen = await Promise.all([seenAcrossAwaits(context, UNRESTRICTED_PRINCIPAL), seenAcrossAwaits(context, UNRESTRICTED_PRINCIPAL)]);
    expect(seen.flat().every((principal) => principal === UNRESTRICTED_PRINCIPAL)).toBe(true);
    // No store, so no promise hooks: AsyncLocalStorage was never run.
    expect(run).not.toHaveBeenCalled();
  });

  it('once a restricted principal calls, every call runs in its own store and sees only its principal', async () => {
    const context = new AsyncLocalPrincipalContext();
    const early = seenAcrossAwaits(context, UNRESTRICTED_PRINCIPAL);
    const [a, b, unrestricted, a2] = await Promise.all([
      seenAcrossAwaits(context, alice),
      seenAcrossAwaits(context, bob),
      seenAcrossAwaits(context, UNRESTRICTED_PRINCIPAL),
      context.run(alice, () => seenAcrossAwaits(context, UNRESTRICTED_PRINCIPAL)),
    ]);
    expect(a).toEqual([alice, alice, alice]);
    expect(b).toEqual([bob, bob, bob]);
    expect(unrestricted).toEqual([UNRESTRICTED_PRINCIPAL, UNRESTRICTED_PRINCIPAL, UNRESTRICTED_PRINCIPAL]);
    // An unrestricted call made inside a restricted one runs in its own store, not alice's.
    expect(a2).toEqual([UNRESTRICTED_PRINCIPAL, UNRESTRICTED_PRINCIPAL, UNRESTRICTED_PRINCIPAL]);
    // A call that started before any restricted call, without a store, still sees the unrestricted principal.
    expect(await early).toEqual([UNRESTRICTED_PRINCIPAL, UNRESTRICTED_PRINCIPAL, UNRESTRICTED_PRINCIPAL]);
    expect(context.current()).toBe(UNRESTRICTED_PRINCIPAL);
  });
});
