import { PassThrough, Writable } from 'node:stream';
import type { JSONRPCMessage } from '@modelcontextprotocol/server';
import { AdmissionBudget } from '../../../../../src/adapters/inbound/mcp/transports/admission-budget.js';
import { StdioLineTransport } from '../../../../../src/adapters/inbound/mcp/transports/stdio-transport.js';

const MiB = 1024 * 1024;

/** A transport on an 8 MiB budget (4 MiB per principal: one 3 MiB request at a time), recording what it hands on and answers. */
function transportOnBudget() {
  const budget = new AdmissionBudget({ total: 8 * MiB, perPrincipal: 4 * MiB });
  const stdin = new PassThrough();
  const answers: Array<{ id: unknown; error?: { code: number } }> = [];
  const stdout = new Writable({
    write(chunk: Buffer, _encoding, callback) {
      for (const line of chunk.toString().split('\n').filter(Boolean)) answers.push(JSON.parse(line));
      callback();
    },
  });
  const transport = new StdioLineTransport(8 * MiB, budget, stdin, stdout);
  const handed: unknown[] = [];
  transport.onmessage = (message) => 'id' in message && handed.push(message.id);
  const line = (message: Record<string, unknown>) => stdin.write(`${JSON.stringify({ jsonrpc: '2.0', ...message })}\n`);
  const large = (id: number) => line({ id, method: 'tools/call', params: { name: 'file_write', arguments: { path: '/w/big.txt', content: 'a'.repeat(3 * MiB) } } });
  const cancel = (id: number) => line({ method: 'notifications/cancelled', params: { requestId: id } });
  return { budget, transport, answers, handed, large, cancel };
}

const settle = () => new Promise((resolve) => setImmediate(resolve));

describe('StdioLineTransport: a cancelled request\'s admission', () => {
  it('keeps its bytes while its handler runs (a second large request is refused), and gives them back when it ends', async () => {
    const { budget, transport, answers, handed, large, cancel } = transportOnBudget();
    await transport.start();
    large(1);
    cancel(1);
    await settle();
    expect(budget.inFlight).toBeGreaterThan(3 * MiB);
    large(2);
    await settle();
    expect(answers).toEqual([expect.objectContaining({ id: 2, error: expect.objectContaining({ code: -32000 }) })]);
    transport.handlerEnded(1);
    expect(budget.inFlight).toBe(0);
    large(3);
    await settle();
    expect(handed).toEqual([1, 3]);
    await transport.close();
  });

  it('gives the bytes back at the cancel when the handler had already ended unanswered', async () => {
    const { budget, transport, large, cancel } = transportOnBudget();
    await transport.start();
    large(1);
    await settle();
    transport.handlerEnded(1);
    expect(budget.inFlight).toBeGreaterThan(3 * MiB);
    cancel(1);
    await settle();
    expect(budget.inFlight).toBe(0);
    await transport.close();
  });

  it('keeps admitting a request-and-cancel loop of large requests past the budget', async () => {
    const { budget, transport, answers, handed, large, cancel } = transportOnBudget();
    await transport.start();
    for (let id = 1; id <= 10; id += 1) {
      large(id);
      cancel(id);
      await settle();
      transport.handlerEnded(id);
    }
    expect(answers).toEqual([]);
    expect(handed).toHaveLength(10);
    expect(budget.inFlight).toBe(0);
    await transport.close();
  });
});
