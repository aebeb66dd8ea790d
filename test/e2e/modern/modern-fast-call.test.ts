import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { jest } from '@jest/globals';
import { McpServerFactory } from '../../../src/adapters/inbound/mcp/protocol/server-factory.js';
import { useTestServer } from '../../support/live-server.js';
import { fastCallEnvelope, postToolCall, sdkPathEnvelope } from '../../support/modern-calls.js';

const ENVELOPE = fastCallEnvelope('fast-call-test');
const SDK_ENVELOPE = sdkPathEnvelope(ENVELOPE);
const post = (url: string, params: Record<string, unknown>, headers: Record<string, string> = {}) => postToolCall(url, params, 7, headers);

describe('the modern HTTP fast path for read-only tools/call (issue 29 §4)', () => {
  let factory: McpServerFactory;
  const live = useTestServer({
    configure: (container) => {
      factory = container.get(McpServerFactory);
    },
  });
  const created = () => jest.spyOn(factory, 'create');

  beforeAll(async () => {
    await writeFile(join(live.root, 'notes.txt'), 'one\ntwo\n');
  });
  afterEach(() => jest.restoreAllMocks());

  const calls: [string, Record<string, unknown>][] = [
    ['a read', { name: 'read_file', arguments: { root: 'workspace', path: 'notes.txt' } }],
    ['a folder listing', { name: 'list_folder', arguments: { root: 'workspace', path: '.' } }],
    ['a missing file (a tool error)', { name: 'read_file', arguments: { root: 'workspace', path: 'absent.txt' } }],
    ['bad arguments (a tool error)', { name: 'read_file', arguments: { root: 'workspace', path: 42 } }],
    ['no arguments at all', { name: 'list_roots' }],
  ];

  it.each(calls)('answers %s exactly as the SDK path does, without building an MCP Server', async (_label, params) => {
    const spy = created();
    const fast = await post(live.server.url, { ...params, _meta: ENVELOPE });
    expect(spy).not.toHaveBeenCalled();
    const sdk = await post(live.server.url, { ...params, _meta: SDK_ENVELOPE });
    expect(spy).toHaveBeenCalledTimes(1);
    expect(fast).toEqual(sdk);
    expect(fast).toMatchObject({ status: 200, type: 'application/json', body: { jsonrpc: '2.0', id: 7, result: { resultType: 'complete' } } });
  });

  it('leaves to the SDK what it must refuse, stream or ask: header mismatches, a progress token, a write its client can confirm, an unknown tool', async () => {
    const spy = created();
    const read = { name: 'read_file', arguments: { root: 'workspace', path: 'notes.txt' }, _meta: ENVELOPE };
    const mismatch = await post(live.server.url, read, { 'mcp-name': 'list_folder' });
    expect({ status: mismatch.status, code: (mismatch.body as { error?: { code: number } }).error?.code }).toEqual({ status: 400, code: -32020 });
    const noMethodHeader = await post(live.server.url, read, { 'mcp-method': '' });
    expect(noMethodHeader.status).toBe(400);
    await post(live.server.url, { ...read, _meta: { ...ENVELOPE, progressToken: 'p1' } });
    // A write goes direct only when no person can be asked (modern-fast-write.test.ts); this client declares form elicitation.
    const asks = fastCallEnvelope('fast-call-test', { elicitation: { form: {} } });
    await post(live.server.url, { name: 'write_file', arguments: { root: 'workspace', path: 'new.txt', content: 'x' }, _meta: asks });
    const unknown = await post(live.server.url, { name: 'no_such_tool', arguments: {}, _meta: ENVELOPE });
    expect((unknown.body as { result?: { isError?: boolean } }).result?.isError).toBe(true);
    // The two refusals never reach a Server; the progress call, the write and the unknown tool are served by one each.
    expect(spy).toHaveBeenCalledTimes(3);
  });
});
