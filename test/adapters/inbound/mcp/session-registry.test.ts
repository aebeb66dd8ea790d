import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { SessionRegistry } from '../../../../src/adapters/inbound/mcp/session-registry.js';
import { RecordingLogger } from '../../../support/recording-logger.js';

async function openSession(registry: SessionRegistry, id: string) {
  const server = new Server({ name: 'test', version: '1' });
  const [, transport] = InMemoryTransport.createLinkedPair();
  await server.connect(transport);
  registry.add({ id, server, transport });
  return server;
}

describe('SessionRegistry', () => {
  it('tells every listener once when a session closes, and forgets it', async () => {
    const heard: string[] = [];
    const registry = new SessionRegistry(
      [{ sessionEnded: (id) => heard.push(`a:${id}`) }, { sessionEnded: (id) => heard.push(`b:${id}`) }],
      new RecordingLogger(),
    );
    const server = await openSession(registry, 's1');
    expect(registry.get('s1')?.server).toBe(server);

    await server.close();
    registry.end('s1');
    expect(heard).toEqual(['a:s1', 'b:s1']);
    expect(registry.get('s1')).toBeUndefined();
  });

  it('works without any listener bound', async () => {
    const registry = new SessionRegistry(undefined, new RecordingLogger());
    const server = await openSession(registry, 's1');
    await server.close();
    expect(registry.size).toBe(0);
  });

  it('keeps telling the other listeners when one throws, and logs the failure', async () => {
    const heard: string[] = [];
    const logger = new RecordingLogger();
    const registry = new SessionRegistry(
      [
        {
          sessionEnded: () => {
            throw new Error('listener broke');
          },
        },
        { sessionEnded: (id) => heard.push(id) },
      ],
      logger,
    );
    await openSession(registry, 's1');
    registry.end('s1');
    expect(heard).toEqual(['s1']);
    expect(logger.withMessage('session end listener failed')[0].fields).toMatchObject({ session: 's1' });
  });

  it('closeAll closes every open session', async () => {
    const heard: string[] = [];
    const registry = new SessionRegistry([{ sessionEnded: (id) => heard.push(id) }], new RecordingLogger());
    await openSession(registry, 's1');
    await openSession(registry, 's2');

    await registry.closeAll();
    expect(heard.sort()).toEqual(['s1', 's2']);
    expect(registry.size).toBe(0);
  });
});
