#!/usr/bin/env node
// Where our HTTP server spends its CPU per call: spawns dist/main.js under --cpu-prof, drives it
// with the raw HTTP load (50 sessions x 40 read_file calls, a few rounds), reads the server's
// CPU time from /proc, stops it, and prints CPU ms a call and the functions with the most self
// time, grouped by package (koa, @modelcontextprotocol/sdk, zod, winston, ours ...).
// With `sequential`, one SDK client calls read_file 1,000 times a round, one call at a time, as the
// bench's read_file 4 KB row does: a call's fixed costs (wake-ups, timers, allocation) weigh more there.
// With `modern`, the same sequential calls from the v2 client pinned to 2026-07-28 (no session: the
// SDK's per-request handler answers each call).
// Usage: npm run build && node scripts/bench/profile-http.mjs [rounds=5] [profile dir=/tmp/prof-http] [sequential|modern]
import { setMaxListeners } from 'node:events';
import { spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { Client as ModernClient, StreamableHTTPClientTransport as ModernHttpTransport } from '@modelcontextprotocol/client';
import { frameName, groupOf, sourceOf } from './bundle-frames.mjs';
import { ensureCorpus } from './corpus.mjs';
import { rawHttpLoad } from './raw-http-load.mjs';
import { OUR_MAIN, freePort, writeConfig } from './servers.mjs';

const rounds = Number(process.argv[2] ?? 5);
const profileDir = process.argv[3] ?? '/tmp/prof-http';
const modern = process.argv[4] === 'modern';
const sequential = process.argv[4] === 'sequential' || modern;
const SEQUENTIAL_CALLS = 1000;
const SESSIONS = 50;
const CALLS = 40;

/** utime + stime of a process in ms (Linux /proc, clock ticks of 10 ms). */
function cpuMs(pid) {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
  return (Number(fields[11]) + Number(fields[12])) * 10;
}

function summarise(file) {
  const profile = JSON.parse(readFileSync(file, 'utf8'));
  const byId = new Map(profile.nodes.map((node) => [node.id, node]));
  const self = new Map();
  const deltas = profile.timeDeltas;
  profile.samples.forEach((id, index) => self.set(id, (self.get(id) ?? 0) + (deltas[index] ?? 0)));
  const byFunction = new Map();
  const byGroup = new Map();
  let total = 0;
  for (const [id, micros] of self) {
    const { callFrame } = byId.get(id);
    if (callFrame.functionName === '(idle)') continue;
    total += micros;
    const source = sourceOf(callFrame);
    const name = frameName(callFrame);
    byFunction.set(name, (byFunction.get(name) ?? 0) + micros);
    const group = groupOf(source.url);
    byGroup.set(group, (byGroup.get(group) ?? 0) + micros);
  }
  const top = (map, n) => [...map].sort((a, b) => b[1] - a[1]).slice(0, n);
  console.log(`\nself time by package (busy ${(total / 1000).toFixed(0)} ms):`);
  for (const [group, micros] of top(byGroup, 25)) console.log(`  ${((100 * micros) / total).toFixed(1).padStart(5)}%  ${group}`);
  console.log('\nfunctions with the most self time:');
  for (const [name, micros] of top(byFunction, 40)) console.log(`  ${((100 * micros) / total).toFixed(1).padStart(5)}%  ${name}`);
}

const corpus = ensureCorpus();
const work = mkdtempSync(join(tmpdir(), 'mcpfs-profile-http-'));
const config = writeConfig(work, corpus);
mkdirSync(profileDir, { recursive: true });
const port = await freePort();
const child = spawn(process.execPath, [`--cpu-prof`, `--cpu-prof-dir=${profileDir}`, OUR_MAIN, '--config', config, '--port', String(port)], { stdio: ['ignore', 'ignore', 'inherit'] });
const base = `http://127.0.0.1:${port}`;
for (let i = 0; ; i += 1) {
  try {
    if ((await fetch(`${base}/health`)).ok) break;
  } catch {
    if (i > 200) throw new Error('the server did not start');
  }
  await new Promise((resolve) => setTimeout(resolve, 50));
}
const expected = readFileSync(join(corpus, 'small-4k.txt'), 'utf8');
let calls;
let before;
if (sequential) {
  // The SDK's HTTP client leaves an abort listener per request on its transport's signal until GC:
  // past 1,500 calls Node warns about a leak that is the client's, not the server's.
  setMaxListeners(0);
  const info = { name: 'mcpfs-profile', version: '1.0.0' };
  const client = modern ? new ModernClient(info, { versionNegotiation: { mode: { pin: '2026-07-28' } } }) : new Client(info);
  await client.connect(modern ? new ModernHttpTransport(new URL(`${base}/mcp`)) : new StreamableHTTPClientTransport(new URL(`${base}/mcp`)));
  const readOnce = async () => {
    const result = await client.callTool({ name: 'read_file', arguments: { root: 'bench', path: 'small-4k.txt' } });
    if (result.structuredContent?.content !== expected) throw new Error('read_file answered something else');
  };
  for (let i = 0; i < 100; i += 1) await readOnce(); // warm-up
  before = cpuMs(child.pid);
  for (let round = 0; round < rounds; round += 1) {
    const started = performance.now();
    for (let i = 0; i < SEQUENTIAL_CALLS; i += 1) await readOnce();
    console.log(`round ${round + 1}: ${((performance.now() - started) / SEQUENTIAL_CALLS).toFixed(3)} ms a call`);
  }
  await client.close();
  calls = rounds * SEQUENTIAL_CALLS;
} else {
  await rawHttpLoad({ url: `${base}/mcp`, sessions: SESSIONS, calls: 5, expected }); // warm-up
  before = cpuMs(child.pid);
  for (let round = 0; round < rounds; round += 1) {
    const result = await rawHttpLoad({ url: `${base}/mcp`, sessions: SESSIONS, calls: CALLS, expected });
    console.log(`round ${round + 1}: ${result.rate.toFixed(0)} calls/s, p50 ${result.p50.toFixed(2)} ms, p99 ${result.p99.toFixed(2)} ms`);
  }
  calls = rounds * SESSIONS * CALLS;
}
console.log(`server CPU: ${((cpuMs(child.pid) - before) / calls).toFixed(3)} ms a call (sessions opened and closed included)`);
const started = Date.now();
await new Promise((resolve) => {
  child.once('exit', resolve);
  child.kill('SIGINT');
});
const written = readdirSync(profileDir)
  .filter((name) => name.endsWith('.cpuprofile'))
  .map((name) => join(profileDir, name))
  .filter((file) => statSync(file).mtimeMs >= started - 1000)
  .sort((a, b) => statSync(b).mtimeMs - statSync(a).mtimeMs);
if (written.length === 0) throw new Error(`no profile written in ${profileDir}`);
console.log(`profile: ${written[0]}`);
summarise(written[0]);
