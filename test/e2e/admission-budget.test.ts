import { mkdir, mkdtemp, readFile, realpath, rm, writeFile } from 'node:fs/promises';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { callTool } from '../support/mcp.js';
import { openRawSession, postParts, rpcMessageOf, type RawAnswer } from '../support/http-flood.js';
import { memoryOf } from '../support/process-memory.js';
import { RawStdioServer } from '../support/raw-stdio.js';
import { spawnServer, type SpawnedServer } from '../support/spawned-server.js';

const MiB = 1024 * 1024;
const MB = 1000 * 1000;

/**
 * Issue 27.5: sixteen ~60 MB file_write requests at once over HTTP on sixteen sessions. `npm test`
 * runs it at a third of the size (max_file_size 3.33 MiB, budget 85 MiB, ~20 MB requests: the same
 * ratios, so one principal's share admits one request at a time, while a server without the budget
 * would hold all sixteen, over 300 MB of bodies, several times that in RSS); `npm run flood:admission`
 * runs it at full size (the defaults: max_file_size 10 MiB, budget 256 MiB, ~60 MB requests).
 */
const FULL = process.env.MCP_FS_FLOOD === 'full';
const SCALE = FULL ? 1 : 1 / 3;
const MAX_FILE_SIZE = Math.round(10 * MiB * SCALE);
const BUDGET = Math.round(256 * MiB * SCALE);
const REQUESTS = 16;
/**
 * At full size, the issue's bound: peak RSS under the budget plus 300 MB. Scaled, what the server
 * adds over its idle RSS: one principal holds at most half the budget, at most ~3 times over while a
 * request is parsed and written, plus up to ~250 MB that does not shrink with the requests (V8's
 * young generation, 17 sessions, garbage not yet collected on a loaded machine). Without the budget
 * the scaled run holds every body at once: about 1 GB over idle.
 */
function rssBound(idleRss: number): number {
  return FULL ? BUDGET + 300 * MB : idleRss + 1.5 * BUDGET + 250 * MB;
}

/** A file_write of `path` whose body is `head + middle + tail`; `middle` is shared by every request. */
function fileWriteParts(id: number, path: string, middle: Buffer): Buffer[] {
  const head = Buffer.from(`{"jsonrpc":"2.0","id":${id},"method":"tools/call","params":{"name":"file_write","arguments":{"path":"${path}","content":"`);
  return [head, middle, Buffer.from('"}}}')];
}

/** An HTTP server on `dir`/root with these `limits:` lines. */
async function startServer(dir: string, limits: string): Promise<SpawnedServer> {
  const config = join(dir, 'config.yaml');
  await writeFile(config, `max_file_size: ${MAX_FILE_SIZE}\nlimits:\n${limits}roots:\n  - { name: workspace, path: ${JSON.stringify(join(dir, 'root'))}, allowed_tools: ["*"] }\n`);
  return spawnServer(config);
}

async function scrape(server: SpawnedServer, series: string): Promise<number> {
  const body = await (await fetch(server.url.replace(/\/mcp$/, '/metrics'))).text();
  const line = body.split('\n').find((candidate) => candidate.startsWith(`${series} `));
  return Number(line?.slice(series.length + 1));
}

/** Calls read_file every 50 ms until `done`, and returns the slowest answer's latency. */
async function probe(client: Client, done: () => boolean): Promise<number> {
  let slowest = 0;
  while (!done()) {
    const started = Date.now();
    const read = await callTool(client, 'read_file', { root: 'workspace', path: 'hello.txt' });
    expect(read.isError).toBe(false);
    slowest = Math.max(slowest, Date.now() - started);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  return slowest;
}

describe(`admission budget: ${REQUESTS} concurrent file_write requests of ~${Math.round(60 * SCALE)} MB over HTTP (max_file_size ${MAX_FILE_SIZE}, budget ${BUDGET})`, () => {
  let dir: string;
  let server: SpawnedServer;

  beforeAll(async () => {
    dir = await realpath(await mkdtemp(join(tmpdir(), 'mcp-fs-admission-')));
    await mkdir(join(dir, 'root'));
    await writeFile(join(dir, 'root', 'hello.txt'), 'hello\n');
    server = await startServer(dir, `  inflight_request_bytes: ${BUDGET}\n`);
  });

  afterAll(async () => {
    await server?.stop();
    await rm(dir, { recursive: true, force: true });
  });

  it('stays up under budget + 300 MB, answers every request (written, FILE_TOO_LARGE or 503 + Retry-After), and another session reads within 2 s', async () => {
    const pid = server.child.pid!;
    const before = await memoryOf(pid);
    const sessions = await Promise.all(Array.from({ length: REQUESTS }, () => openRawSession(server.url)));
    const reader = await server.connect();
    // Half the requests write max_file_size bytes escaped at JSON's worst (6 bytes a byte); half send 60 MB of plain content.
    const escaped = Buffer.from('\\u0001'.repeat(MAX_FILE_SIZE));
    const plain = Buffer.alloc(Math.round(60 * MB * SCALE), 'a');
    let finished = false;
    const slowest = probe(reader, () => finished);
    const answers: RawAnswer[] = await Promise.all(
      sessions.map((sessionId, index) => postParts(server.url, sessionId, fileWriteParts(index + 10, `/workspace/big-${index}.bin`, index % 2 === 0 ? escaped : plain))),
    );
    finished = true;
    const after = await memoryOf(pid);
    const outcomes = answers.map((answer, index) => {
      if (answer.status === 503) {
        expect(answer.headers['retry-after']).toBe('5');
        expect(rpcMessageOf(answer.body).error!.message).toContain('limits.inflight_request_bytes');
        return '503';
      }
      expect(answer).toMatchObject({ status: 200 });
      const { result } = rpcMessageOf(answer.body);
      if (index % 2 === 1) {
        expect(result.content[0].text).toContain('FILE_TOO_LARGE');
        return 'FILE_TOO_LARGE';
      }
      expect(result.isError).toBeFalsy();
      return 'written';
    });
    const figures = { outcomes: outcomes.join(' '), before_rss: before.rss, peak_rss: after.peak, bound: rssBound(before.rss), slowest_read_ms: await slowest };
    process.stderr.write(`admission flood: ${JSON.stringify(figures)}\n`);
    expect(server.child.exitCode).toBeNull();
    expect(outcomes).toContain('written');
    expect(after.peak).toBeLessThan(figures.bound);
    expect(figures.slowest_read_ms).toBeLessThan(2000);
    expect(await scrape(server, 'mcp_fs_inflight_request_bytes')).toBe(0);
    expect(await scrape(server, 'mcp_fs_request_bytes_admitted_total')).toBeGreaterThan(2 * plain.length);
    if (outcomes.includes('503')) expect(await scrape(server, 'mcp_fs_request_bytes_refused_total')).toBeGreaterThan(plain.length);
  }, 300_000);

  it('decodes a body whose UTF-8 characters are split between the pieces it arrives in', async () => {
    const sessionId = await openRawSession(server.url);
    const euro = Buffer.from('€😀');
    const parts = fileWriteParts(99, '/workspace/split.txt', Buffer.alloc(0));
    // Each piece is written on its own: the 3- and 4-byte sequences straddle them.
    const pieces = [Buffer.concat([parts[0], euro.subarray(0, 1)]), euro.subarray(1, 5), Buffer.concat([euro.subarray(5), parts[2]])];
    const answer = await postParts(server.url, sessionId, pieces);
    expect(rpcMessageOf(answer.body).result.isError).toBeFalsy();
    expect(await readFile(join(dir, 'root', 'split.txt'), 'utf8')).toBe('€😀');
  });
});

describe(`admission budget: ${3 * REQUESTS} file_write requests of ~${Math.round(60 * SCALE)} MB over HTTP, two at a time`, () => {
  let dir: string;
  let server: SpawnedServer;

  beforeAll(async () => {
    dir = await realpath(await mkdtemp(join(tmpdir(), 'mcp-fs-admission-stream-')));
    await mkdir(join(dir, 'root'));
    server = await startServer(dir, `  inflight_request_bytes: ${BUDGET}\n`);
  });

  afterAll(async () => {
    await server?.stop();
    await rm(dir, { recursive: true, force: true });
  });

  it('stays under the bound of the flood with every request admitted', async () => {
    // The flood above admits more or fewer requests with the machine's load; this is its worst case made
    // certain: a principal's share admits two of these at once, so a stream of pairs is never refused and
    // the garbage of one request after another is what the bound must absorb (it did not, 2 runs in 4,
    // while the body was held twice on the V8 heap: 436-506 MB against ~483).
    const before = await memoryOf(server.child.pid!);
    const sessions = await Promise.all(Array.from({ length: 2 }, () => openRawSession(server.url)));
    const escaped = Buffer.from('\\u0001'.repeat(MAX_FILE_SIZE));
    const plain = Buffer.alloc(Math.round(60 * MB * SCALE), 'a');
    const outcomes: string[] = [];
    let next = 0;
    const stream = async (sessionId: string) => {
      while (next < 3 * REQUESTS) {
        const index = next++;
        const answer = await postParts(server.url, sessionId, fileWriteParts(100 + index, `/workspace/stream-${index % 4}.bin`, index % 2 === 0 ? escaped : plain));
        outcomes.push(answer.status === 200 ? (rpcMessageOf(answer.body).result.isError ? 'FILE_TOO_LARGE' : 'written') : String(answer.status));
      }
    };
    await Promise.all(sessions.map(stream));
    const after = await memoryOf(server.child.pid!);
    process.stderr.write(`admission stream: ${JSON.stringify({ before_rss: before.rss, peak_rss: after.peak, bound: rssBound(before.rss) })}\n`);
    expect(outcomes.filter((outcome) => outcome === 'written')).toHaveLength(3 * REQUESTS / 2);
    expect(outcomes.filter((outcome) => outcome === 'FILE_TOO_LARGE')).toHaveLength(3 * REQUESTS / 2);
    expect(after.peak).toBeLessThan(rssBound(before.rss));
    expect(await scrape(server, 'mcp_fs_inflight_request_bytes')).toBe(0);
  }, 300_000);
});

describe('issue 33.4: a body that stops arriving (limits.body_idle_seconds: 1)', () => {
  let dir: string;
  let server: SpawnedServer;

  beforeAll(async () => {
    dir = await realpath(await mkdtemp(join(tmpdir(), 'mcp-fs-slow-body-')));
    await mkdir(join(dir, 'root'));
    server = await startServer(dir, '  body_idle_seconds: 1\n');
  });

  afterAll(async () => {
    await server?.stop();
    await rm(dir, { recursive: true, force: true });
  });

  it('counts the unfinished body against the budget, answers 408 and closes the connection within seconds, and gives the bytes back', async () => {
    const sessionId = await openRawSession(server.url);
    const { hostname, port, pathname } = new URL(server.url);
    const socket = connect(Number(port), hostname);
    let received = '';
    socket.setEncoding('utf8');
    socket.on('data', (chunk: string) => (received += chunk));
    const closed = new Promise<void>((resolve) => socket.once('close', () => resolve()));
    const started = Date.now();
    socket.write(
      `POST ${pathname} HTTP/1.1\r\nHost: ${hostname}:${port}\r\nContent-Type: application/json\r\nAccept: application/json, text/event-stream\r\n` +
        `Mcp-Session-Id: ${sessionId}\r\nMcp-Protocol-Version: 2025-06-18\r\nTransfer-Encoding: chunked\r\n\r\n100000\r\n${'a'.repeat(300_000)}`,
    );
    // A chunk of 1 MiB announced, 300 KB sent, then nothing.
    await new Promise((resolve) => setTimeout(resolve, 400));
    expect(await scrape(server, 'mcp_fs_inflight_request_bytes')).toBeGreaterThanOrEqual(300_000);
    await closed;
    const elapsed = Date.now() - started;
    expect(elapsed).toBeLessThan(5000);
    expect(received).toMatch(/^HTTP\/1\.1 408 /);
    expect(received).toContain('limits.body_idle_seconds');
    expect(await scrape(server, 'mcp_fs_inflight_request_bytes')).toBe(0);
    // The server serves on.
    const client = await server.connect();
    expect((await callTool(client, 'list_roots', {})).isError).toBe(false);
  });
});

describe('stdio: a line over the admission budget (max_file_size 1 MiB, inflight_request_bytes 8 MiB: one request may hold ~4 MiB)', () => {
  let dir: string;
  let server: RawStdioServer;

  beforeAll(async () => {
    dir = await realpath(await mkdtemp(join(tmpdir(), 'mcp-fs-stdio-budget-')));
    await writeFile(join(dir, 'hello.txt'), 'hello\n');
    await writeFile(join(dir, 'config.yaml'), `max_file_size: ${MiB}\nlimits:\n  inflight_request_bytes: ${8 * MiB}\nroots:\n  - { name: workspace, path: ., allowed_tools: ["*"] }\n`);
    server = await RawStdioServer.start(['--config', join(dir, 'config.yaml')]);
  });

  afterAll(async () => {
    await server?.stop();
    await rm(dir, { recursive: true, force: true });
  });

  it('answers a 5 MB line (under the 7 MiB request limit) with an error naming the limit, and serves the next lines', async () => {
    const line = Buffer.concat([...fileWriteParts(21, '/workspace/big.txt', Buffer.alloc(5 * MB, 'a')), Buffer.from('\n')]);
    await server.write(line);
    const refused = await server.answer(21);
    expect(refused.error).toMatchObject({ code: -32000, data: { size: line.length - 1, limit: 'limits.inflight_request_bytes_per_principal' } });
    expect(refused.error!.message).toContain('limits.inflight_request_bytes_per_principal');
    // A line the budget admits is read and answered as before (FILE_TOO_LARGE: 3 MB of content), and so is a small one.
    await server.write(Buffer.concat([...fileWriteParts(22, '/workspace/big.txt', Buffer.alloc(3 * MB, 'a')), Buffer.from('\n')]));
    expect((await server.answer(22)).result.content[0].text).toContain('FILE_TOO_LARGE');
    const read = await server.call(23, 'file_read', { path: '/workspace/hello.txt' });
    expect(read.result.structuredContent.content).toBe('hello\n');
  });

  it('keeps admitting a loop of large requests each cancelled at once (their bytes go back when their handlers end)', async () => {
    const cancel = (id: number) => Buffer.from(`${JSON.stringify({ jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: id } })}\n`);
    const fileRead = (id: number) => Buffer.from(`${JSON.stringify({ jsonrpc: '2.0', id, method: 'tools/call', params: { name: 'file_read', arguments: { path: `/workspace/${'a'.repeat(3 * MB)}` } } })}\n`);
    // 3 MB each: without the bytes given back, the second would pass the principal's ~4 MiB and be refused.
    for (let id = 31; id <= 42; id += 1) {
      // file_write goes through the SDK's handler, file_read through the stdio fast path; the cancel follows in the same write.
      const request = id % 2 === 0 ? Buffer.concat([...fileWriteParts(id, '/workspace/big.txt', Buffer.alloc(3 * MB, 'a')), Buffer.from('\n')]) : fileRead(id);
      await server.write(Buffer.concat([request, cancel(id)]));
      await server.write(`${JSON.stringify({ jsonrpc: '2.0', id: `ping-${id}`, method: 'ping' })}\n`);
      await server.answer(`ping-${id}`);
    }
    expect(server.answers.filter((answer) => typeof answer.id === 'number' && answer.id >= 31 && answer.id <= 42 && answer.error?.code === -32000)).toEqual([]);
    await server.write(Buffer.concat([...fileWriteParts(43, '/workspace/big.txt', Buffer.alloc(3 * MB, 'a')), Buffer.from('\n')]));
    expect((await server.answer(43)).result.content[0].text).toContain('FILE_TOO_LARGE');
  });
});
