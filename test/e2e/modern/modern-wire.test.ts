import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { useTestServer } from '../../support/live-server.js';
import { postModern } from '../../support/modern-calls.js';

const MODERN = '2026-07-28';
const ENVELOPE = {
  'io.modelcontextprotocol/protocolVersion': MODERN,
  'io.modelcontextprotocol/clientInfo': { name: 'wire-test', version: '1.0.0' },
  'io.modelcontextprotocol/clientCapabilities': {},
};

interface Answer {
  status: number;
  body: { id?: unknown; result?: Record<string, unknown>; error?: { code: number; message: string; data?: unknown } };
}

/** One raw POST the way the official conformance suite sends it: modern headers, JSON or SSE back. */
async function post(url: string, method: string, params: Record<string, unknown>, id = 1): Promise<Answer> {
  const response = await postModern(url, method, params, id);
  const text = await response.text();
  const json = response.headers.get('content-type')?.includes('text/event-stream')
    ? text.split('\n').filter((line) => line.startsWith('data:')).map((line) => JSON.parse(line.slice(5))).find((message) => message.id === id)
    : JSON.parse(text);
  return { status: response.status, body: json };
}

describe('MCP 2026-07-28 details on the wire (what the conformance suite checks)', () => {
  const live = useTestServer();
  const call = (method: string, params: Record<string, unknown> = {}, id?: number) => post(live.server.url, method, { ...params, _meta: ENVELOPE }, id);

  it('refuses a request under a modern MCP-Protocol-Version header without its _meta envelope: 400, -32602, its own id', async () => {
    for (const [id, params] of [
      [101, {}],
      [102, { _meta: { 'io.modelcontextprotocol/clientCapabilities': {} } }],
    ] as const) {
      const answer = await post(live.server.url, 'server/discover', params, id);
      expect({ status: answer.status, id: answer.body.id, code: answer.body.error?.code }).toEqual({ status: 400, id, code: -32602 });
    }
  });

  it('puts honest cache hints on the cacheable results: a read is not cached, the lists are', async () => {
    await writeFile(join(live.root, 'cached.txt'), 'changes any time\n');
    const hints = async (method: string, params?: Record<string, unknown>) => {
      const { result } = (await call(method, params)).body;
      return { resultType: result?.resultType, ttlMs: result?.ttlMs, cacheScope: result?.cacheScope };
    };
    expect(await hints('resources/read', { uri: 'mcpfs://workspace/cached.txt' })).toEqual({ resultType: 'complete', ttlMs: 0, cacheScope: 'private' });
    expect(await hints('tools/list')).toEqual({ resultType: 'complete', ttlMs: 300_000, cacheScope: 'private' });
    expect(await hints('resources/list')).toEqual({ resultType: 'complete', ttlMs: 60_000, cacheScope: 'private' });
    expect(await hints('resources/templates/list')).toEqual({ resultType: 'complete', ttlMs: 300_000, cacheScope: 'public' });
    expect(await hints('server/discover')).toEqual({ resultType: 'complete', ttlMs: 300_000, cacheScope: 'private' });
  });

  it('answers a URI this server does not serve as resource not found: -32602 with the URI', async () => {
    const { body } = await call('resources/read', { uri: 'test://nonexistent' });
    expect({ code: body.error?.code, data: body.error?.data }).toEqual({ code: -32602, data: { uri: 'test://nonexistent' } });
  });
});
