import type { JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';
import { rememberResultJson, serializeMessage, serializeMessages } from '../../../../../src/adapters/inbound/mcp/transports/message-json.js';
import { toCallToolResult } from '../../../../../src/adapters/inbound/mcp/tool-calls/result-mapper.js';

const answer = (id: number, result: unknown) => ({ jsonrpc: '2.0', id, result }) as unknown as JSONRPCMessage;

/** What the SDK's schema check hands the transport: a shallow copy of the result, its parts copied too. */
const shallowCopy = (result: { content: { type: string; text?: string }[]; structuredContent?: Record<string, unknown> }) => ({
  content: result.content.map((block) => ({ ...block })),
  ...(result.structuredContent ? { structuredContent: { ...result.structuredContent } } : {}),
});

const listing = () => ({
  path: 'dir "quoted" \\ and\nnewline',
  entries: Array.from({ length: 300 }, (_, i) => ({ name: `entry-${i}.txt`, type: 'file', size: i, modified_at: '2026-11-23T00:00:00.000Z' })),
  count: 300,
});

describe('serializeMessage: a result sent from the JSON its mapper made', () => {
  it('writes exactly what JSON.stringify writes, for a mapped result sent as the SDK hands it on', () => {
    const result = toCallToolResult({ structured: listing() });
    const message = answer(7, shallowCopy(result as never));
    const expected = JSON.stringify(message);
    expect(serializeMessage(message)).toBe(expected);
    // Sent once: a second send of the same message is serialised in full, with the same bytes.
    expect(serializeMessage(message)).toBe(expected);
  });

  it('uses the remembered JSON (it does not serialise the structured content again)', () => {
    const structured = { marker: 'real' };
    const text = JSON.stringify(structured);
    rememberResultJson({ text, textJson: JSON.stringify(text), structured, structuredJson: '{"marker":"remembered"}' });
    expect(serializeMessage(answer(1, { content: [{ type: 'text', text }], structuredContent: { ...structured } }))).toBe(
      `{"jsonrpc":"2.0","id":1,"result":{"content":[{"type":"text","text":${JSON.stringify(text)}}],"structuredContent":{"marker":"remembered"}}}`,
    );
  });

  it('forgets what it remembered once the turn of the event loop ends (a result never sent is not kept alive)', async () => {
    const structured = { marker: 'real' };
    const text = JSON.stringify(structured);
    rememberResultJson({ text, textJson: JSON.stringify(text), structured, structuredJson: '{"marker":"remembered"}' });
    await new Promise((resolve) => setImmediate(resolve));
    const message = answer(2, { content: [{ type: 'text', text }], structuredContent: { ...structured } });
    expect(serializeMessage(message)).toBe(JSON.stringify(message));
  });

  it.each([
    ['a structured content with another member', (r: Record<string, unknown>) => ({ ...r, structuredContent: { ...(r.structuredContent as object), extra: 1 } })],
    ['a structured content holding another value', (r: Record<string, unknown>) => ({ ...r, structuredContent: { ...(r.structuredContent as object), count: 1 } })],
    ['members in another order', (r: Record<string, unknown>) => ({ ...r, structuredContent: Object.fromEntries(Object.entries(r.structuredContent as object).reverse()) })],
    ['a second content block', (r: Record<string, unknown>) => ({ ...r, content: [...(r.content as object[]), { type: 'text', text: 'more' }] })],
    ['a text block with annotations', (r: Record<string, unknown>) => ({ ...r, content: [{ ...(r.content as object[])[0], annotations: { priority: 1 } }] })],
    ['isError and _meta members', (r: Record<string, unknown>) => ({ _meta: { a: 1 }, ...r, isError: false })],
  ])('falls back to (or matches) JSON.stringify for %s', (_what, change) => {
    const result = toCallToolResult({ structured: listing() }) as unknown as Record<string, unknown>;
    const message = answer(3, change(shallowCopy(result as never)));
    expect(serializeMessage(message)).toBe(JSON.stringify(message));
  });

  it('serialises errors, notifications, requests and batches as JSON.stringify does', () => {
    const mapped = toCallToolResult({ structured: listing() });
    const messages = [
      { jsonrpc: '2.0', id: 'a', error: { code: -32602, message: 'bad' } },
      { jsonrpc: '2.0', method: 'notifications/progress', params: { progressToken: 1, progress: 2, total: undefined } },
      { jsonrpc: '2.0', id: 9, method: 'roots/list' },
      answer(4, shallowCopy(mapped as never)),
      answer(5, { content: [] }),
    ] as JSONRPCMessage[];
    for (const message of messages) expect(serializeMessage(message)).toBe(JSON.stringify(message));
    const again = toCallToolResult({ structured: listing() });
    const batch = [answer(6, shallowCopy(again as never)), messages[0]];
    expect(serializeMessages(batch)).toBe(JSON.stringify(batch));
  });
});
