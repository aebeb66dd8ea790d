import { jest } from '@jest/globals';
import { z } from 'zod';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import type { JSONRPCMessage } from '@modelcontextprotocol/server';
import { AsyncLocalPrincipalContext } from '../../../../../src/adapters/inbound/mcp/protocol/call-principal.js';
import { McpServerFactory } from '../../../../../src/adapters/inbound/mcp/protocol/server-factory.js';
import { defineTool, READ_ONLY, WRITES } from '../../../../../src/adapters/inbound/mcp/tool-calls/tool-definition.js';
import { StdioFastCalls } from '../../../../../src/adapters/inbound/mcp/transports/stdio-fast-call.js';
import { RecordingLogger } from '../../../../support/recording-logger.js';

let release: (() => void) | undefined;
let seenSignal: { readonly aborted: boolean } | undefined;
const readTool = defineTool({
  name: 'read_file',
  title: 'Read file',
  description: 'Reads a file.',
  inputSchema: { path: z.string().describe('path') },
  outputSchema: { content: z.string() },
  annotations: READ_ONLY,
  logFields: (args) => ({ path: args.path }),
  handle: async (args, context) => {
    seenSignal = context.work?.signal;
    if (args.path === 'slow') await new Promise<void>((resolve) => (release = resolve));
    return { structured: { content: `text of ${args.path}` } };
  },
});
const writeTool = defineTool({
  name: 'write_file',
  title: 'Write file',
  description: 'Writes a file.',
  inputSchema: { path: z.string().describe('path') },
  outputSchema: { written: z.boolean() },
  annotations: WRITES,
  logFields: (args) => ({ path: args.path }),
  handle: async () => ({ structured: { written: true } }),
});

const request = (id: number, params: Record<string, unknown>): JSONRPCMessage => ({ jsonrpc: '2.0', id, method: 'tools/call', params }) as JSONRPCMessage;

async function session() {
  const factory = new McpServerFactory([readTool, writeTool], new RecordingLogger(), new AsyncLocalPrincipalContext());
  const server = factory.create('stdio-test');
  const sent: JSONRPCMessage[] = [];
  const ended: Array<string | number> = [];
  const fast = new StdioFastCalls(factory, 'stdio-test', async (message) => void sent.push(message), (id) => void ended.push(id));
  fast.serveFor(server);
  const [clientTransport, serverTransport] = InMemoryTransport.createLinkedPair();
  // Before initialize the SDK answers everything.
  expect(fast.take(request(1, { name: 'read_file', arguments: { path: 'a' } }))).toBe(false);
  await server.connect(serverTransport);
  const client = new Client({ name: 'fast-test', version: '1' });
  await client.connect(clientTransport);
  const answered = async (id: number) => {
    for (let i = 0; i < 100 && !sent.some((m) => 'id' in m && m.id === id); i += 1) await new Promise((resolve) => setTimeout(resolve, 5));
    return sent.find((m) => 'id' in m && m.id === id) as { result?: unknown; error?: unknown } | undefined;
  };
  return { factory, fast, client, sent, answered, ended };
}

describe('StdioFastCalls (issue 29 §4: read-only calls over 2025-era stdio without the SDK protocol layer)', () => {
  it('answers a read-only call with the result the SDK path gives, without building a Server', async () => {
    const { factory, fast, client, answered } = await session();
    const create = jest.spyOn(factory, 'create');
    expect(fast.take(request(2, { name: 'read_file', arguments: { path: 'a' } }))).toBe(true);
    const viaSdk = await client.callTool({ name: 'read_file', arguments: { path: 'a' } });
    expect((await answered(2))?.result).toEqual(viaSdk);
    // A tool error (bad arguments) is a result too, the same on both paths.
    expect(fast.take(request(3, { name: 'read_file', arguments: { path: 7 } }))).toBe(true);
    const errorViaSdk = await client.callTool({ name: 'read_file', arguments: { path: 7 } });
    expect((await answered(3))?.result).toEqual(errorViaSdk);
    expect(create).not.toHaveBeenCalled();
  });

  it('leaves to the SDK a writing or unknown tool, a progress token, extra params, and non-calls', async () => {
    const { fast } = await session();
    expect(fast.take(request(4, { name: 'write_file', arguments: { path: 'a' } }))).toBe(false);
    expect(fast.take(request(5, { name: 'nope', arguments: {} }))).toBe(false);
    expect(fast.take(request(6, { name: 'read_file', arguments: { path: 'a' }, _meta: { progressToken: 'p' } }))).toBe(false);
    expect(fast.take(request(7, { name: 'read_file', arguments: { path: 'a' }, task: {} }))).toBe(false);
    expect(fast.take({ jsonrpc: '2.0', id: 8, method: 'tools/list' } as JSONRPCMessage)).toBe(false);
    expect(fast.take({ jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: 99 } } as JSONRPCMessage)).toBe(false);
  });

  it("logs a failed call to the session's log ahead of its answer, once the client set a level", async () => {
    const { fast, client, sent, answered } = await session();
    await client.setLoggingLevel('warning');
    expect(fast.take(request(10, { name: 'read_file', arguments: { path: 7 } }))).toBe(true);
    await answered(10);
    const log = sent.findIndex((m) => 'method' in m && m.method === 'notifications/message');
    expect(sent[log]).toMatchObject({ params: { level: 'warning', data: { event: 'tool_call_failed', tool: 'read_file' } } });
    expect(log).toBeLessThan(sent.findIndex((m) => 'id' in m && m.id === 10));
  });

  it('cancels a call on notifications/cancelled, sends no answer for it, and says when its work has ended', async () => {
    const { fast, sent, ended } = await session();
    expect(fast.take(request(9, { name: 'read_file', arguments: { path: 'slow' } }))).toBe(true);
    for (let i = 0; i < 100 && release === undefined; i += 1) await new Promise((resolve) => setTimeout(resolve, 5));
    expect(fast.take({ jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: 9 } } as JSONRPCMessage)).toBe(true);
    expect(seenSignal?.aborted).toBe(true);
    // Still running: the transport keeps the request's bytes.
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(ended).not.toContain(9);
    release?.();
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(sent.some((m) => 'id' in m && m.id === 9)).toBe(false);
    expect(ended).toContain(9);
  });
});
