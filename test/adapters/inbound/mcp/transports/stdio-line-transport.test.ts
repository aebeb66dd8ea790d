import { PassThrough, Writable } from 'node:stream';
import type { JSONRPCMessage } from '@modelcontextprotocol/server';
import { AdmissionBudget } from '../../../../../src/adapters/inbound/mcp/transports/admission-budget.js';
import { StdioLineTransport } from '../../../../../src/adapters/inbound/mcp/transports/stdio-transport.js';

const MiB = 1024 * 1024;

/** A stdout whose writes complete only when `flush` is called: full after the first write. */
function heldStdout() {
  const pending: Array<() => void> = [];
  const written: string[] = [];
  const stream = new Writable({
    highWaterMark: 1,
    write(chunk: Buffer, _encoding, callback) {
      written.push(chunk.toString());
      pending.push(callback);
    },
  });
  const flush = () => {
    while (pending.length > 0) pending.shift()?.();
  };
  return { stream, written, flush };
}

describe('StdioLineTransport.send', () => {
  it('makes every answer written while stdout is full wait on one drain listener, and settles them all when it drains', async () => {
    const stdout = heldStdout();
    const transport = new StdioLineTransport(MiB, new AdmissionBudget({ total: 64 * MiB, perPrincipal: 32 * MiB }), new PassThrough(), stdout.stream);
    const warnings: Error[] = [];
    const onWarning = (warning: Error) => warnings.push(warning);
    process.on('warning', onWarning);
    try {
      let settled = 0;
      const sends = Array.from({ length: 50 }, (_, id) =>
        transport.send({ jsonrpc: '2.0', id, result: {} } as unknown as JSONRPCMessage).then(() => {
          settled += 1;
        }),
      );
      expect(stdout.stream.listenerCount('drain')).toBe(1);
      await new Promise((resolve) => setImmediate(resolve));
      expect(settled).toBe(0);
      stdout.flush();
      await Promise.all(sends);
      expect(settled).toBe(50);
      expect(stdout.written).toHaveLength(50);
      expect(stdout.stream.listenerCount('drain')).toBe(0);
      // Full again: a later blocked write waits for the next drain, not the one already past.
      let late = false;
      const later = transport.send({ jsonrpc: '2.0', id: 'late', result: {} } as unknown as JSONRPCMessage).then(() => {
        late = true;
      });
      await new Promise((resolve) => setImmediate(resolve));
      expect(late).toBe(false);
      stdout.flush();
      await later;
      expect(warnings.filter((warning) => warning.name === 'MaxListenersExceededWarning')).toEqual([]);
    } finally {
      process.off('warning', onWarning);
    }
  });
});
