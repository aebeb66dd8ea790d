import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { ElicitRequestSchema, type ElicitResult } from '@modelcontextprotocol/sdk/types.js';
import { ElicitingConfirmation } from '../../../../src/adapters/inbound/mcp/call-confirmation.js';
import type { ChangeAuthor } from '../../../../src/domain/ports/change-journal.port.js';

const QUESTION = { root: 'workspace', path: 'big.log', reason: 'the file was larger than the journal keeps' };

/** A server and a client joined in memory; the client (with `capabilities`) answers every elicitation with `answer`. */
async function session(capabilities: Record<string, unknown>, answer: ElicitResult) {
  const server = new Server({ name: 's', version: '1' }, { capabilities: {} });
  const client = new Client({ name: 'c', version: '1' }, { capabilities });
  if ('elicitation' in capabilities) client.setRequestHandler(ElicitRequestSchema, () => Promise.resolve(answer));
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  await Promise.all([server.connect(serverSide), client.connect(clientSide)]);
  return { server, close: () => client.close() };
}

describe('ElicitingConfirmation (issue 30.3)', () => {
  const call: ChangeAuthor = { principal: 'local', session: 's1', tool: 'write_file' };

  it.each([
    [{ action: 'accept', content: { confirm: true } }, 'accepted'],
    [{ action: 'accept', content: { confirm: false } }, 'declined'],
    [{ action: 'decline' }, 'declined'],
    [{ action: 'cancel' }, 'cancelled'],
  ] as const)('maps the answer %j to %s', async (answer, expected) => {
    const { server, close } = await session({ elicitation: {} }, answer as ElicitResult);
    const confirmation = new ElicitingConfirmation(5000);
    const unbind = confirmation.bind(call, { server, requestId: 1, signal: new AbortController().signal });
    try {
      expect(await confirmation.ask(call, QUESTION)).toBe(expected);
    } finally {
      unbind();
      await close();
    }
  });

  it('answers unavailable for a client without form elicitation, and for a call that was never bound or has ended', async () => {
    const { server, close } = await session({ elicitation: { url: {} } }, { action: 'accept', content: { confirm: true } });
    const confirmation = new ElicitingConfirmation(5000);
    const unbind = confirmation.bind(call, { server, requestId: 1, signal: new AbortController().signal });
    expect(await confirmation.ask(call, QUESTION)).toBe('unavailable');
    unbind();
    expect(await confirmation.ask(call, QUESTION)).toBe('unavailable');
    expect(await confirmation.ask({ ...call }, QUESTION)).toBe('unavailable');
    await close();
  });

  it('answers cancelled, without asking, once the call was cancelled', async () => {
    const { server, close } = await session({ elicitation: {} }, { action: 'accept', content: { confirm: true } });
    const confirmation = new ElicitingConfirmation(5000);
    const cancelled = new AbortController();
    cancelled.abort();
    confirmation.bind(call, { server, requestId: 1, signal: cancelled.signal });
    expect(await confirmation.ask(call, QUESTION)).toBe('cancelled');
    await close();
  });
});
