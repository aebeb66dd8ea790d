import { InMemorySessionState } from '../../../../../src/adapters/outbound/in-memory-session-state.js';
import { StateHandles, withHandle } from '../../../../../src/adapters/inbound/mcp/protocol/state-handles.js';
import { DomainError } from '../../../../../src/domain/errors.js';

const LIMITS = { idleTimeoutMs: 1_000, max: 100, maxPerPrincipal: 2 };

function setup() {
  let nowMs = 0;
  const clock = { now: () => new Date(nowMs) };
  const store = new InMemorySessionState(LIMITS, clock);
  return { store, handles: new StateHandles(store), advance: (ms: number) => (nowMs += ms) };
}

const MODERN = { modern: true, sessionId: 'request-1', use: 'mints' as const };

async function refusal(promise: Promise<unknown>): Promise<string> {
  const error = await promise.then(() => undefined, (thrown: unknown) => thrown);
  if (!(error instanceof DomainError)) throw new Error(`expected a DomainError, got ${String(error)}`);
  return error.toClientText();
}

describe('StateHandles', () => {
  it('mints an unguessable handle for a modern call without one, bound to the principal in the store', async () => {
    const { store, handles } = setup();
    const state = await handles.stateFor(undefined, 'alice', MODERN);
    expect(state).toEqual({ sessionId: state.handle, handle: expect.stringMatching(/^h_[A-Za-z0-9_-]{32}$/), minted: true });
    expect(await store.touch(state.handle!)).toEqual({ principal: 'alice' });
    const other = await handles.stateFor(undefined, 'alice', MODERN);
    expect(other.handle).not.toBe(state.handle);
  });

  it('resolves a presented handle to its own state, not the request scope', async () => {
    const { handles } = setup();
    const { handle } = await handles.stateFor(undefined, 'alice', MODERN);
    expect(await handles.stateFor(handle, 'alice', MODERN)).toEqual({ sessionId: handle, handle });
  });

  it('refuses another principal presenting the handle, naming nothing of its state', async () => {
    const { handles } = setup();
    const { handle } = await handles.stateFor(undefined, 'alice', MODERN);
    const text = await refusal(handles.stateFor(handle, 'mallory', MODERN));
    expect(text).toBe('ACCESS_DENIED: handle belongs to another principal; call without `handle` to get your own');
  });

  it('refuses unknown, malformed and non-string handles without touching the store', async () => {
    const { handles } = setup();
    expect(await refusal(handles.stateFor(`h_${'A'.repeat(32)}`, 'alice', MODERN))).toMatch(/^INVALID_ARGUMENT: unknown or expired handle/);
    expect(await refusal(handles.stateFor('session-of-someone', 'alice', MODERN))).toMatch(/^INVALID_ARGUMENT: unknown or expired handle/);
    expect(await refusal(handles.stateFor(42, 'alice', MODERN))).toMatch(/^INVALID_ARGUMENT: invalid handle: expected a string/);
  });

  it('expires a handle left idle past the session timeout; use keeps it alive', async () => {
    const { handles, advance } = setup();
    const { handle } = await handles.stateFor(undefined, 'alice', MODERN);
    advance(900);
    await handles.stateFor(handle, 'alice', MODERN);
    advance(900);
    expect((await handles.stateFor(handle, 'alice', MODERN)).sessionId).toBe(handle);
    advance(1_000);
    expect(await refusal(handles.stateFor(handle, 'alice', MODERN))).toMatch(/unknown or expired handle/);
  });

  it('counts handles against the per-principal session cap', async () => {
    const { handles } = setup();
    await handles.stateFor(undefined, 'alice', MODERN);
    await handles.stateFor(undefined, 'alice', MODERN);
    expect(await refusal(handles.stateFor(undefined, 'alice', MODERN))).toMatch(/^CONFLICT: no new handle: your principal has too many/);
  });

  it('keeps the session id for 2025-era calls and for journal tools without a handle', async () => {
    const { handles } = setup();
    expect(await handles.stateFor(undefined, 'alice', { ...MODERN, modern: false })).toEqual({ sessionId: 'request-1' });
    expect(await handles.stateFor(undefined, 'alice', { ...MODERN, use: 'accepts' })).toEqual({ sessionId: 'request-1' });
    const { handle } = await handles.stateFor(undefined, 'alice', MODERN);
    expect((await handles.stateFor(handle, 'alice', { ...MODERN, modern: false, use: 'accepts' })).sessionId).toBe(handle);
  });

  it('adds the handle to a result: structured field and a last text block', () => {
    const result = { content: [{ type: 'text' as const, text: 'ok' }], structuredContent: { cwd: '/w' } };
    expect(withHandle(result, { sessionId: 's' })).toBe(result);
    const minted = withHandle(result, { sessionId: 'h_x', handle: 'h_x', minted: true });
    expect(minted.structuredContent).toEqual({ cwd: '/w', handle: 'h_x' });
    expect(minted.content.map((block) => (block.type === 'text' ? block.text : ''))).toEqual(['ok', 'handle: h_x (pass it as `handle` to later view and edit calls)']);
    const failed = withHandle({ isError: true, content: [{ type: 'text' as const, text: 'FILE_NOT_VIEWED: x' }] }, { sessionId: 'h_x', handle: 'h_x' });
    expect(failed).toEqual({ isError: true, content: [{ type: 'text', text: 'FILE_NOT_VIEWED: x' }, { type: 'text', text: 'handle: h_x' }] });
  });
});
