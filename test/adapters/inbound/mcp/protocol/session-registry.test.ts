import { InMemoryTransport, Server } from '@modelcontextprotocol/server';
import { SessionRegistry } from '../../../../../src/adapters/inbound/mcp/protocol/session-registry.js';
import { InMemorySessionState } from '../../../../../src/adapters/outbound/in-memory-session-state.js';
import { InProcessChangeFeed } from '../../../../../src/adapters/outbound/feed/in-process-change-feed.js';
import type { SessionEndListener } from '../../../../../src/adapters/inbound/mcp/mcp-tokens.js';
import { RecordingLogger } from '../../../../support/recording-logger.js';

const IDLE_MS = 1000;

class SteppedClock {
  ms = 1_000_000;
  now(): Date {
    return new Date(this.ms);
  }
}

function world(listeners?: SessionEndListener[]) {
  const clock = new SteppedClock();
  const logger = new RecordingLogger();
  const store = new InMemorySessionState({ idleTimeoutMs: IDLE_MS, max: 10, maxPerPrincipal: 10 }, clock);
  const registry = new SessionRegistry(listeners, logger, store, clock, new InProcessChangeFeed());
  return { clock, logger, store, registry };
}

async function openSession(registry: SessionRegistry, id: string) {
  expect(await registry.open(id, 'anonymous')).toBe('opened');
  const server = new Server({ name: 'test', version: '1' });
  const [, transport] = InMemoryTransport.createLinkedPair();
  await server.connect(transport);
  let closed = false;
  transport.onclose = () => (closed = true);
  registry.add({ id, server, transport });
  return { server, isClosed: () => closed };
}

describe('SessionRegistry', () => {
  it('end tells every listener once, drops the store state and closes the local server', async () => {
    const heard: string[] = [];
    const { registry, store } = world([{ sessionEnded: (id) => heard.push(`a:${id}`) }, { sessionEnded: (id) => heard.push(`b:${id}`) }]);
    const session = await openSession(registry, 's1');
    await store.setWorkingDirectory('s1', '/workspace/src');

    await registry.end('s1');
    expect(heard).toEqual(['a:s1', 'b:s1']);
    expect(registry.get('s1')).toBeUndefined();
    expect(session.isClosed()).toBe(true);
    expect(await registry.resume('s1')).toBeUndefined();
    expect(store.sessionCount).toBe(0);
  });

  it('works without any listener bound', async () => {
    const { registry } = world(undefined);
    await openSession(registry, 's1');
    await registry.end('s1');
    expect(registry.size).toBe(0);
  });

  it('keeps telling the other listeners when one throws, and logs the failure', async () => {
    const heard: string[] = [];
    const { registry, logger } = world([
      {
        sessionEnded: () => {
          throw new Error('listener broke');
        },
      },
      { sessionEnded: (id) => heard.push(id) },
    ]);
    await openSession(registry, 's1');
    await registry.end('s1');
    expect(heard).toEqual(['s1']);
    expect(logger.withMessage('session end listener failed')[0].fields).toMatchObject({ session: 's1' });
  });

  it('closeAll closes every local server but leaves the sessions in the store for a restarted process', async () => {
    const heard: string[] = [];
    const { registry } = world([{ sessionEnded: (id) => heard.push(id) }]);
    const one = await openSession(registry, 's1');
    const two = await openSession(registry, 's2');

    await registry.closeAll();
    expect([one.isClosed(), two.isClosed()]).toEqual([true, true]);
    expect(registry.size).toBe(0);
    expect(heard).toEqual([]);
    expect(await registry.resume('s1')).toEqual({ principal: 'anonymous' });
  });

  it('a session idle past the timeout is gone on the next request, before any sweep, and its server is closed', async () => {
    const { registry, clock, store } = world();
    const session = await openSession(registry, 's1');
    clock.ms += IDLE_MS - 1;
    expect(await registry.resume('s1')).toEqual({ principal: 'anonymous' });
    clock.ms += IDLE_MS;
    expect(await registry.resume('s1')).toBeUndefined();
    expect(session.isClosed()).toBe(true);
    expect(registry.get('s1')).toBeUndefined();
    expect(store.sessionCount).toBe(0);
  });

  it('the sweep drops idle sessions and keeps active ones', async () => {
    const { registry, clock, store } = world();
    const idle = await openSession(registry, 'idle');
    clock.ms += IDLE_MS / 2;
    const active = await openSession(registry, 'active');
    clock.ms += IDLE_MS / 2;

    await registry.sweep();
    expect(idle.isClosed()).toBe(true);
    expect(active.isClosed()).toBe(false);
    expect(store.sessionCount).toBe(1);
    expect(registry.get('active')).toBeDefined();
  });
});
