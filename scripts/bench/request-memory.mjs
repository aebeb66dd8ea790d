#!/usr/bin/env node
// Peak memory of one legal large request (issue 27.5): `npm run build && node scripts/bench/request-memory.mjs [MiB]`.
// Spawns dist/main.js once over stdio and once over HTTP on a temp root (journal on, as by default), reads the
// server's VmRSS from /proc when idle, sends one file_write whose JSON is MiB mebibytes (default 50): content of
// ~MiB/6 mebibytes of U+0001, each sent as the six bytes \u0001, so it is written (under max_file_size), then reads
// VmHWM, the peak resident set. Prints one JSON line per transport: the peak over idle and its ratio to the request.
import { spawn } from 'node:child_process';
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { createInterface } from 'node:readline';

const MiB = 1024 * 1024;
const SIZE = Number(process.argv[2] ?? 50) * MiB;
const MAIN = resolve('dist/main.js');
const ENVELOPE = (content) => JSON.stringify({ jsonrpc: '2.0', id: 2, method: 'tools/call', params: { name: 'file_write', arguments: { path: '/workspace/big.bin', content } } });
const request = ENVELOPE('\u0001'.repeat(Math.floor((SIZE - ENVELOPE('').length) / 6)));
const HEADERS = { 'content-type': 'application/json', accept: 'application/json, text/event-stream' };
const INITIALIZE = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'memory', version: '1' } } });

async function memory(pid) {
  const status = await readFile(`/proc/${pid}/status`, 'utf8');
  const kib = (key) => Number(new RegExp(`^${key}:\\s+(\\d+) kB`, 'm').exec(status)[1]) * 1024;
  return { rss: kib('VmRSS'), peak: kib('VmHWM') };
}

function start(dir, args) {
  return spawn(process.execPath, [MAIN, '--config', join(dir, 'config.yaml'), ...args], {
    env: { PATH: process.env.PATH, MCP_FS_JOURNAL_DIR: join(dir, 'journal') },
    stdio: ['pipe', 'pipe', 'pipe'],
  });
}

async function overStdio(dir) {
  const child = start(dir, ['--stdio']);
  const answers = createInterface({ input: child.stdout });
  const answer = (id) => new Promise((done) => answers.on('line', (line) => JSON.parse(line).id === id && done(line)));
  child.stderr.resume();
  child.stdin.write(`${INITIALIZE}\n`);
  await answer(1);
  child.stdin.write('{"jsonrpc":"2.0","method":"notifications/initialized"}\n');
  await new Promise((done) => setTimeout(done, 500));
  const idle = await memory(child.pid);
  const answered = answer(2);
  child.stdin.write(`${request}\n`);
  const text = await answered;
  const after = await memory(child.pid);
  child.stdin.end();
  await new Promise((done) => child.once('exit', done));
  return { idle, after, ok: !text.includes('"isError":true') };
}

async function overHttp(dir) {
  const child = start(dir, ['--port', '0']);
  const url = await new Promise((done) =>
    createInterface({ input: child.stderr }).on('line', (line) => {
      if (line.startsWith('{') && JSON.parse(line).url) done(JSON.parse(line).url);
    }),
  );
  const opened = await fetch(url, { method: 'POST', headers: HEADERS, body: INITIALIZE });
  const session = { ...HEADERS, 'mcp-session-id': opened.headers.get('mcp-session-id'), 'mcp-protocol-version': '2025-06-18' };
  await opened.text();
  await (await fetch(url, { method: 'POST', headers: session, body: '{"jsonrpc":"2.0","method":"notifications/initialized"}' })).text();
  await new Promise((done) => setTimeout(done, 500));
  const idle = await memory(child.pid);
  const text = await (await fetch(url, { method: 'POST', headers: session, body: request })).text();
  const after = await memory(child.pid);
  child.kill('SIGTERM');
  await new Promise((done) => child.once('exit', done));
  return { idle, after, ok: !text.includes('"isError":true') };
}

for (const [transport, run] of [['stdio', overStdio], ['http', overHttp]]) {
  const dir = await mkdtemp(join(tmpdir(), 'mcp-fs-request-memory-'));
  await mkdir(join(dir, 'root'));
  await writeFile(join(dir, 'config.yaml'), 'roots:\n  - { name: workspace, path: root, allowed_tools: ["*"] }\n');
  const { idle, after, ok } = await run(dir);
  const over = after.peak - idle.rss;
  console.log(JSON.stringify({ transport, request_bytes: request.length, written: ok, idle_rss: idle.rss, peak_rss: after.peak, peak_over_idle: over, ratio: Number((over / request.length).toFixed(2)) }));
  await rm(dir, { recursive: true, force: true });
}
