import { InMemoryTransport, type JSONRPCMessage } from '@modelcontextprotocol/server';
import { HandlerEndsServer } from '../../../../../src/adapters/inbound/mcp/protocol/handler-ends.js';

/** A server whose tools/call waits on `open`, connected to a raw peer that records what the server sends. */
async function gatedServer() {
  const server = new HandlerEndsServer({ name: 'gated', version: '1' }, { capabilities: { tools: {} } });
  const ended: Array<string | number> = [];
  server.onHandlerEnd = (id) => ended.push(id);
  let open!: () => void;
  const gate = new Promise<void>((resolve) => (open = resolve));
  let started!: () => void;
  const running = new Promise<void>((resolve) => (started = resolve));
  server.setRequestHandler('tools/call', async () => {
    started();
    await gate;
    return { content: [{ type: 'text', text: 'done' }] };
  });
  const [peer, serverSide] = InMemoryTransport.createLinkedPair();
  const received: JSONRPCMessage[] = [];
  peer.onmessage = (message) => received.push(message);
  await server.connect(serverSide);
  const send = (message: Record<string, unknown>) => peer.send({ jsonrpc: '2.0', ...message } as JSONRPCMessage);
  await send({ id: 'init', method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'peer', version: '1' } } });
  await send({ method: 'notifications/initialized' });
  return { server, ended, open, running, received, send };
}

const settle = () => new Promise((resolve) => setImmediate(resolve));

describe('HandlerEndsServer', () => {
  it('tells its owner when a cancelled request\'s handler ends, not when the cancel arrives', async () => {
    const { server, ended, open, running, received, send } = await gatedServer();
    try {
      await send({ id: 7, method: 'tools/call', params: { name: 'anything', arguments: {} } });
      await running;
      await send({ method: 'notifications/cancelled', params: { requestId: 7 } });
      await settle();
      // The handler still runs: it may still hold the request's memory.
      expect(ended).not.toContain(7);
      open();
      await settle();
      expect(ended).toContain(7);
      // Cancelled: the SDK sends no answer, so this signal is the only end the transport sees.
      expect(received.some((message) => 'id' in message && message.id === 7)).toBe(false);
    } finally {
      await server.close();
    }
  });

  it('covers the handlers the SDK registers itself (ping) and answered requests', async () => {
    const { server, ended, open, send } = await gatedServer();
    try {
      open();
      await send({ id: 'p', method: 'ping' });
      await send({ id: 8, method: 'tools/call', params: { name: 'anything', arguments: {} } });
      await settle();
      expect(ended).toEqual(expect.arrayContaining(['init', 'p', 8]));
    } finally {
      await server.close();
    }
  });
});
