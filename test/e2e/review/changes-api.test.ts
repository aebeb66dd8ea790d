import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { callTool } from '../../support/mcp.js';
import { sha256Hex } from '../../support/raw-mcp.js';
import { startTestServer, type TestServer } from '../../support/server.js';
import { MAX_STREAMS_PER_PRINCIPAL } from '../../../src/adapters/inbound/review/review-api.js';

// Issue 30 §2: the JSON API behind /changes, through the real server over HTTP, with two token principals.

const ALICE = 'alice-token-0123456789';
const BOB = 'bob-token-0123456789';

describe('/changes/api: the review page\'s endpoints (same auth and principal filtering as list_changes)', () => {
  let server: TestServer;
  let alice: Client;
  let bob: Client;
  const api = (path: string, token: string | undefined, init: RequestInit = {}) =>
    fetch(`${server.baseUrl}/changes/api${path}`, { ...init, headers: { ...(token ? { authorization: `Bearer ${token}` } : {}), ...(init.headers as Record<string, string>) } });
  const json = async (path: string, token: string | undefined, init: RequestInit = {}) => {
    const response = await api(path, token, init);
    return { status: response.status, body: (await response.json()) as any };
  };
  const undo = (token: string, selection: Record<string, unknown>) =>
    json('/undo', token, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(selection) });
  const write = async (client: Client, path: string, content: string) => {
    const outcome = await callTool(client, 'write_file', { root: 'workspace', path, content });
    if (outcome.isError) throw new Error(outcome.text);
  };
  const onDisk = (path: string) => readFile(join(server.rootPath('workspace'), path), 'utf8');

  beforeAll(async () => {
    server = await startTestServer({
      auth: { mode: 'tokens', tokens: [{ name: 'alice', sha256: sha256Hex(ALICE), readOnly: false }, { name: 'bob', sha256: sha256Hex(BOB), readOnly: false }] },
    });
    alice = await server.connect({ bearer: ALICE });
    bob = await server.connect({ bearer: BOB });
  });
  afterAll(() => server.stop());

  it('serves the page without a token, and answers 401 for the API without one (or with a wrong one)', async () => {
    const page = await fetch(`${server.baseUrl}/changes`);
    expect(page.status).toBe(200);
    expect(page.headers.get('content-type')).toContain('text/html');
    expect(page.headers.get('content-security-policy')).toContain("frame-ancestors 'none'");
    expect(await page.text()).toContain('<h1>Changes</h1>');
    expect((await api('/changes', undefined)).status).toBe(401);
    expect((await api('/changes', 'wrong-token')).status).toBe(401);
    expect((await api('/events', undefined)).status).toBe(401);
    expect((await undo('nope', { ids: ['00000000000000000'] })).status).toBe(401);
  });

  it("lists the principal's changes newest first, filtered like list_changes; another principal's never appear", async () => {
    await write(alice, 'a.txt', 'one\n');
    await write(alice, 'a.txt', 'one\ntwo\n');
    await write(bob, 'b.txt', 'bob\n');
    const mine = await json('/changes', ALICE);
    expect(mine.status).toBe(200);
    expect(mine.body.changes.map((change: any) => [change.principal, change.op, change.path])).toEqual([
      ['token:alice', 'modify', 'a.txt'],
      ['token:alice', 'create', 'a.txt'],
    ]);
    const theirs = await json('/changes', BOB);
    expect(theirs.body.changes.map((change: any) => change.path)).toEqual(['b.txt']);
    const session = mine.body.changes[0].session;
    expect((await json(`/changes?root=workspace&path=a.txt&session=${session}`, ALICE)).body.changes).toHaveLength(2);
    expect((await json('/changes?session=another', ALICE)).body.changes).toEqual([]);
    expect((await json(`/changes?since_id=${mine.body.changes[1].id}`, ALICE)).body.changes.map((change: any) => change.id)).toEqual([mine.body.changes[0].id]);
    // Bob may not probe Alice's ids: her id is unknown to him.
    const probed = await json(`/changes?since_id=${mine.body.changes[1].id}`, BOB);
    expect(probed).toEqual({ status: 404, body: { error: { code: 'NOT_FOUND', message: expect.stringContaining('no change') } } });
  });

  it('gives one change with a readable diff, and 404 for another principal\'s id', async () => {
    const [latest] = (await json('/changes?path=a.txt&root=workspace', ALICE)).body.changes;
    const shown = await json(`/changes/${latest.id}`, ALICE);
    expect(shown.status).toBe(200);
    expect(shown.body.change).toMatchObject({ id: latest.id, path: 'a.txt', diff: expect.stringContaining('+two') });
    const refused = await json(`/changes/${latest.id}`, BOB);
    expect(refused.status).toBe(404);
    expect(JSON.stringify(refused.body)).not.toContain('two');
    expect((await json('/changes/not-an-id', ALICE)).status).toBe(400);
  });

  it('dry-runs an undo (nothing changes), then undoes it: the file on disk is restored', async () => {
    await write(alice, 'c.txt', 'before\n');
    await write(alice, 'c.txt', 'after\n');
    const [latest] = (await json('/changes?root=workspace&path=c.txt', ALICE)).body.changes;
    const dry = await undo(ALICE, { ids: [latest.id], dry_run: true });
    expect(dry.body.results).toEqual([expect.objectContaining({ id: latest.id, outcome: 'would_restore', diff: expect.stringContaining('+before') })]);
    expect(await onDisk('c.txt')).toBe('after\n');
    expect((await undo(BOB, { ids: [latest.id] })).body.results).toEqual([expect.objectContaining({ outcome: 'not_undoable' })]);
    const done = await undo(ALICE, { ids: [latest.id] });
    expect(done.body.results).toEqual([expect.objectContaining({ id: latest.id, outcome: 'restored' })]);
    expect(await onDisk('c.txt')).toBe('before\n');
    // The undo is a change of Alice's too, made from the page's session, and the undone one says so.
    const after = (await json('/changes?root=workspace&path=c.txt', ALICE)).body.changes;
    expect(after[0]).toMatchObject({ tool: 'undo_changes', session: 'changes-page', principal: 'token:alice' });
    expect(after.find((change: any) => change.id === latest.id)).toMatchObject({ undoable: false, undone_by: 'changes-page' });
  });

  it('a conflict says what differs and leaves the file; forced, the undo goes over the later edit', async () => {
    await write(alice, 'd.txt', 'mine\n');
    await writeFile(join(server.rootPath('workspace'), 'd.txt'), 'edited by hand since\n');
    const selection = { root: 'workspace', path: 'd.txt' };
    const dry = await undo(ALICE, { ...selection, dry_run: true });
    expect(dry.body.results).toEqual([expect.objectContaining({ outcome: 'conflict', reason: expect.stringContaining('d.txt') })]);
    expect((await undo(ALICE, selection)).body.results).toEqual([expect.objectContaining({ outcome: 'conflict' })]);
    expect(await onDisk('d.txt')).toBe('edited by hand since\n');
    expect((await undo(ALICE, { ...selection, force: true })).body.results).toEqual([expect.objectContaining({ outcome: 'restored' })]);
    await expect(onDisk('d.txt')).rejects.toMatchObject({ code: 'ENOENT' });
  });

  it('undoes every change after one (since_id), and nothing of another principal\'s', async () => {
    await write(alice, 'e1.txt', 'first\n');
    const [first] = (await json('/changes?root=workspace&path=e1.txt', ALICE)).body.changes;
    await write(alice, 'e2.txt', 'second\n');
    await write(bob, 'bob-after.txt', 'bob\n');
    const done = await undo(ALICE, { since_id: first.id });
    expect(done.body.results.map((result: any) => [result.path, result.outcome])).toEqual([['e2.txt', 'restored']]);
    expect(await onDisk('e1.txt')).toBe('first\n');
    expect(await onDisk('bob-after.txt')).toBe('bob\n');
  });

  it('undo takes JSON only (no cross-site form), and a foreign Origin is refused by the Host/Origin guard', async () => {
    const form = await api('/undo', ALICE, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: 'since_id=00000000000000000' });
    expect(form.status).toBe(400);
    const foreign = await api('/undo', ALICE, { method: 'POST', headers: { 'content-type': 'application/json', origin: 'https://evil.example' }, body: '{"since_id":"00000000000000000"}' });
    expect(foreign.status).toBe(403);
    expect((await undo(ALICE, { ids: ['00000000000000000'], extra: 1 })).status).toBe(400);
  });

  it('the live stream delivers a new change of the principal (and not another principal\'s)', async () => {
    const [newest] = (await json('/changes', ALICE)).body.changes;
    const abort = new AbortController();
    const response = await api(`/events?since_id=${newest.id}`, ALICE, { signal: abort.signal });
    expect(response.headers.get('content-type')).toContain('text/event-stream');
    const reader = response.body!.pipeThrough(new TextDecoderStream()).getReader();
    await reader.read(); // the stream is open
    await write(bob, 'bob-live.txt', 'not for alice\n');
    await write(alice, 'live.txt', 'hello\n');
    let text = '';
    while (!text.includes('live.txt')) text += (await reader.read()).value ?? '';
    abort.abort();
    const frame = /event: changes\ndata: (.*)\n\n/.exec(text);
    expect(JSON.parse(frame![1]).changes.map((change: any) => change.path)).toEqual(['live.txt']);
    expect(text).not.toContain('bob-live');
  });

  it('a stream without since_id starts from now; one following an id that is not the caller\'s says so and ends', async () => {
    const abort = new AbortController();
    const response = await api('/events', ALICE, { signal: abort.signal });
    const reader = response.body!.pipeThrough(new TextDecoderStream()).getReader();
    await reader.read();
    await write(alice, 'from-now.txt', 'new\n');
    let text = '';
    while (!text.includes('event: changes')) text += (await reader.read()).value ?? '';
    abort.abort();
    expect(text).toContain('from-now.txt');
    expect(text).not.toContain('a.txt');

    const [alices] = (await json('/changes', ALICE)).body.changes;
    const refused = await (await api(`/events?since_id=${alices.id}`, BOB)).text();
    expect(refused).toMatch(/event: failed\ndata: .*NOT_FOUND/);
  });

  it('a principal holds at most MAX_STREAMS_PER_PRINCIPAL live streams; one closed makes room, and another principal is not held back', async () => {
    const aborts = Array.from({ length: MAX_STREAMS_PER_PRINCIPAL }, () => new AbortController());
    const open = await Promise.all(aborts.map((abort) => api('/events', ALICE, { signal: abort.signal })));
    expect(open.map((response) => response.status)).toEqual(aborts.map(() => 200));
    const refused = await json('/events', ALICE);
    expect(refused).toEqual({ status: 429, body: { error: { code: 'TOO_MANY_STREAMS', message: expect.stringContaining(`at most ${MAX_STREAMS_PER_PRINCIPAL}`) } } });
    const bobs = new AbortController();
    expect((await api('/events', BOB, { signal: bobs.signal })).status).toBe(200);
    bobs.abort();
    aborts[0].abort();
    let again: Response | undefined;
    const last = new AbortController();
    // The server hears of the closed stream when its socket closes.
    for (let tries = 0; tries < 50 && again?.status !== 200; tries += 1) {
      again = await api('/events', ALICE, { signal: last.signal });
      if (again.status !== 200) await new Promise((resolve) => setTimeout(resolve, 20));
    }
    expect(again?.status).toBe(200);
    last.abort();
    for (const abort of aborts) abort.abort();
  });
});

describe('/changes/api with the journal off', () => {
  it('answers 404 saying there is nothing to review (the test turns the journal off to see that answer)', async () => {
    const server = await startTestServer({ journal: false });
    try {
      const response = await fetch(`${server.baseUrl}/changes/api/changes`);
      expect(response.status).toBe(404);
      expect(await response.json()).toEqual({ error: { code: 'NOT_FOUND', message: expect.stringContaining('the change journal is off') } });
    } finally {
      await server.stop();
    }
  });
});
