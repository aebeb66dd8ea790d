import { SessionRegistry } from '../../src/adapters/inbound/mcp/protocol/session-registry.js';
import type { InMemorySessionState } from '../../src/adapters/outbound/in-memory-session-state.js';
import { TOKENS } from '../../src/composition/tokens.js';
import { useTestServer } from '../support/live-server.js';
import { INITIALIZE, MCP_HEADERS, PING } from '../support/raw-mcp.js';

/** Idle expiry and session caps over Streamable HTTP, on the in-memory store with a clock the test moves. */

const IDLE_MS = 60_000;

class SteppedClock {
  ms = Date.now();
  now(): Date {
    return new Date(this.ms);
  }
}

async function initialize(url: string): Promise<Response> {
  return fetch(url, { method: 'POST', headers: MCP_HEADERS, body: INITIALIZE });
}

async function ping(url: string, sessionId: string): Promise<Response> {
  return fetch(url, { method: 'POST', headers: { ...MCP_HEADERS, 'mcp-session-id': sessionId, 'mcp-protocol-version': '2025-06-18' }, body: PING });
}

async function openRaw(url: string): Promise<string> {
  const response = await initialize(url);
  expect(response.status).toBe(200);
  await response.text();
  return response.headers.get('mcp-session-id')!;
}

describe('idle timeout', () => {
  const clock = new SteppedClock();
  let registry: SessionRegistry;
  let store: InMemorySessionState;
  const live = useTestServer({
    sessions: { idleTimeoutMs: IDLE_MS },
    overrides: { clock },
    configure: (container) => {
      registry = container.get(SessionRegistry);
      store = container.get(TOKENS.SessionStore) as InMemorySessionState;
    },
  });

  it('a request after the idle timeout finds the session gone (404) before any sweep ran; activity keeps it alive', async () => {
    const id = await openRaw(live.server.url);
    clock.ms += IDLE_MS - 1000;
    expect((await ping(live.server.url, id)).status).toBe(200);
    clock.ms += IDLE_MS - 1000;
    expect((await ping(live.server.url, id)).status).toBe(200);

    clock.ms += IDLE_MS;
    const late = await ping(live.server.url, id);
    expect(late.status).toBe(404);
    expect(((await late.json()) as { error: unknown }).error).toMatchObject({ code: -32001, message: 'Session not found' });
    expect(registry.get(id)).toBeUndefined();
  });

  it('the sweep closes sessions nobody asks about again, and drops their state', async () => {
    const id = await openRaw(live.server.url);
    await fetch(live.server.url, { method: 'POST', headers: MCP_HEADERS, body: INITIALIZE }).then((r) => r.text());
    const before = store.sessionCount;
    clock.ms += IDLE_MS;
    await registry.sweep();
    expect(registry.get(id)).toBeUndefined();
    expect(store.sessionCount).toBe(0);
    expect(before).toBeGreaterThan(0);
  });
});

describe('session caps', () => {
  describe('sessions.max', () => {
    let registry: SessionRegistry;
    const live = useTestServer({ sessions: { max: 3, maxPerPrincipal: 10 }, configure: (container) => (registry = container.get(SessionRegistry)) });

    it('an initialize beyond the cap gets 503 with Retry-After and a JSON-RPC error, and nothing is allocated', async () => {
      // useTestServer's own client holds one session.
      const first = await openRaw(live.server.url);
      await openRaw(live.server.url);
      const served = registry.size;

      const refused = await initialize(live.server.url);
      expect(refused.status).toBe(503);
      expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0);
      expect(refused.headers.get('mcp-session-id')).toBeNull();
      const body = (await refused.json()) as { error: { message: string } };
      expect(body).toMatchObject({ jsonrpc: '2.0', id: null, error: { code: -32000 } });
      expect(body.error.message).toMatch(/maximum number of sessions \(sessions\.max/);
      expect(registry.size).toBe(served);

      const ended = await fetch(live.server.url, { method: 'DELETE', headers: { 'mcp-session-id': first } });
      expect(ended.status).toBe(200);
      await openRaw(live.server.url);
    });
  });

  describe('sessions.max_per_principal', () => {
    const live = useTestServer({ sessions: { max: 100, maxPerPrincipal: 2 } });

    it('counts the sessions of one principal (every unauthenticated client is "local")', async () => {
      await openRaw(live.server.url);
      const refused = await initialize(live.server.url);
      expect(refused.status).toBe(503);
      expect(refused.headers.get('retry-after')).not.toBeNull();
      expect(((await refused.json()) as { error: { message: string } }).error.message).toMatch(/this principal holds its maximum number of sessions/);
    });
  });
});

describe('/health and /ready on the in-memory store', () => {
  const live = useTestServer();

  it('report ok and ready: the store is in this process', async () => {
    const health = await fetch(`${live.server.baseUrl}/health`);
    expect([health.status, await health.text()]).toEqual([200, 'ok']);
    const ready = await fetch(`${live.server.baseUrl}/ready`);
    expect([ready.status, await ready.text()]).toEqual([200, 'ready']);
  });
});
