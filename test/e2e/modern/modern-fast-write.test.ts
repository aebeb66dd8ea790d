import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { jest } from '@jest/globals';
import type { Client as ModernClient } from '@modelcontextprotocol/client';
import { McpServerFactory } from '../../../src/adapters/inbound/mcp/protocol/server-factory.js';
import { useTestServer } from '../../support/live-server.js';
import { sample } from '../../support/metrics.js';
import { fastCallEnvelope, modernHttpClient, postToolCall, sdkPathEnvelope } from '../../support/modern-calls.js';

// Issue 29 §4: a writing tools/call of a 2026-07-28 client that declares no form elicitation is
// answered by the fast path, as reads are. Each rule of the SDK's path is compared here: the same
// answer, the journal's author, the change feed's listeners, the metrics, and what still goes the
// SDK's way (a person to ask, a progress token). Confirmation is on (the default) in this server.
const ENVELOPE = fastCallEnvelope('fast-write-test');
const SDK_ENVELOPE = sdkPathEnvelope(ENVELOPE);
type Body = { result?: { isError?: boolean; structuredContent?: Record<string, unknown> }; error?: unknown };
const post = (url: string, params: Record<string, unknown>) => postToolCall<Body>(url, params, 9);

const write = (path: string, content: string, meta: Record<string, unknown> = ENVELOPE) => ({ name: 'write_file', arguments: { root: 'workspace', path, content }, _meta: meta });

async function until(check: () => boolean, ms = 5000): Promise<void> {
  const end = Date.now() + ms;
  while (!check()) {
    if (Date.now() > end) throw new Error('timed out');
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}

describe('the modern HTTP fast path for writing tools/call (issue 29 §4)', () => {
  let factory: McpServerFactory;
  const live = useTestServer({
    configure: (container) => {
      factory = container.get(McpServerFactory);
    },
  });
  const created = () => jest.spyOn(factory, 'create');
  const clients: ModernClient[] = [];
  afterEach(() => jest.restoreAllMocks());
  afterAll(async () => {
    for (const client of clients) await client.close().catch(() => undefined);
  });

  it('writes and answers exactly as the SDK path does, without building an MCP Server', async () => {
    await writeFile(join(live.root, 'same.txt'), 'before\n');
    const spy = created();
    const fast = await post(live.server.url, write('same.txt', 'after\n'));
    expect(spy).not.toHaveBeenCalled();
    expect(await readFile(join(live.root, 'same.txt'), 'utf8')).toBe('after\n');
    await writeFile(join(live.root, 'same.txt'), 'before\n');
    const sdk = await post(live.server.url, write('same.txt', 'after\n', SDK_ENVELOPE));
    expect(spy).toHaveBeenCalledTimes(1);
    expect(fast).toEqual(sdk);
    expect(fast).toMatchObject({ status: 200, type: 'application/json', body: { result: { resultType: 'complete' } } });
    expect(fast.body.result?.isError).not.toBe(true);
  });

  it('refuses a write outside the root the same way on both paths', async () => {
    const spy = created();
    const fast = await post(live.server.url, write('../escape.txt', 'x'));
    const sdk = await post(live.server.url, write('../escape.txt', 'x', SDK_ENVELOPE));
    expect(spy).toHaveBeenCalledTimes(1);
    expect(fast).toEqual(sdk);
    expect(fast.body.result?.isError).toBe(true);
  });

  it("records the change under the caller, the request's scope and the tool, as the SDK path does", async () => {
    const spy = created();
    await post(live.server.url, write('journaled-fast.txt', 'one\n'));
    await post(live.server.url, write('journaled-sdk.txt', 'one\n', SDK_ENVELOPE));
    expect(spy).toHaveBeenCalledTimes(1);
    const listed = await post(live.server.url, { name: 'list_changes', arguments: { root: 'workspace', limit: 10 }, _meta: ENVELOPE });
    const changes = (listed.body.result?.structuredContent?.changes ?? []) as Record<string, unknown>[];
    const of = (path: string) => changes.find((change) => JSON.stringify(change).includes(path));
    const fast = of('journaled-fast.txt');
    const sdk = of('journaled-sdk.txt');
    expect(fast).toBeDefined();
    expect(sdk).toBeDefined();
    // The same fields and the same author, bar what names each change and each request's own scope.
    const author = (change: Record<string, unknown>) => ({ principal: change.principal, tool: change.tool, op: change.op, keys: Object.keys(change).sort() });
    expect(author(fast!)).toEqual(author(sdk!));
    expect(fast!.tool).toBe('write_file');
    // Each path's session is its request's own scope (a fresh one per POST), never a shared one.
    expect([fast!.session, sdk!.session]).toEqual([expect.stringMatching(/^request-/), expect.stringMatching(/^request-/)]);
    expect(fast!.session).not.toBe(sdk!.session);
  });

  it('reaches a subscriptions/listen listener whose filter covers the file', async () => {
    await writeFile(join(live.root, 'heard.txt'), 'old\n');
    const listener = await modernHttpClient(live.server.url, undefined, 'fast-write-listener');
    clients.push(listener);
    const uris: string[] = [];
    listener.setNotificationHandler('notifications/resources/updated', (note) => {
      uris.push(note.params.uri);
    });
    const subscription = await listener.listen({ resourceSubscriptions: ['mcpfs://workspace/heard.txt'] });
    const spy = created();
    await post(live.server.url, write('heard.txt', 'new\n'));
    expect(spy).not.toHaveBeenCalled();
    await until(() => uris.includes('mcpfs://workspace/heard.txt'));
    await subscription.close();
  }, 20_000);

  it('counts the call in the metrics and logs it as the SDK path does', async () => {
    const series = 'mcp_fs_tool_calls_total{tool="write_file",root="workspace",outcome="success"}';
    const scrape = async () => sample(await (await fetch(new URL('/metrics', live.server.url))).text(), series) ?? 0;
    const logged = () => live.server.logger.entries.filter((entry) => entry.fields.tool === 'write_file' && entry.fields.path === 'counted.txt');
    const spy = created();
    const before = await scrape();
    await post(live.server.url, write('counted.txt', 'x\n'));
    expect(spy).not.toHaveBeenCalled();
    const afterFast = await scrape();
    const fastLog = logged();
    await post(live.server.url, write('counted.txt', 'x\n', SDK_ENVELOPE));
    expect(afterFast - before).toBe(1);
    expect((await scrape()) - afterFast).toBe(1);
    // The call log: the same lines, with the same fields, bar timings and each request's scope.
    const shape = (entries: typeof fastLog) =>
      entries.map(({ level, message, fields: { duration_ms: _ms, session, ...fields } }) => ({ level, message, fields, session: typeof session }));
    expect(fastLog.length).toBeGreaterThan(0);
    expect(shape(logged().slice(fastLog.length))).toEqual(shape(fastLog));
  });

  it('leaves to the SDK a write whose client can be asked in form (confirmation rounds), or that carries a progress token', async () => {
    const spy = created();
    const asking = fastCallEnvelope('fast-write-test', { elicitation: { form: {} } });
    await post(live.server.url, write('asked.txt', 'x\n', asking));
    expect(spy).toHaveBeenCalledTimes(1);
    await post(live.server.url, write('progress.txt', 'x\n', { ...ENVELOPE, progressToken: 'p1' }));
    expect(spy).toHaveBeenCalledTimes(2);
  });
});
