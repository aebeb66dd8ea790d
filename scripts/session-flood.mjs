#!/usr/bin/env node
// Measures the memory an open session costs and the RSS after an initialize flood that never
// DELETEs: `npm run build && node scripts/session-flood.mjs [count]`. Starts dist/main.js twice on
// a temp root (in-memory session store): once with caps high enough for every session (memory per
// session), once with the default caps and once at sessions.max (the flood is refused beyond them). Prints one JSON line each.
import { spawn } from 'node:child_process';
import { mkdtemp, mkdir, rm, writeFile, readFile } from 'node:fs/promises';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';

const COUNT = Number(process.argv[2] ?? 5000);
const INITIALIZE = JSON.stringify({
  jsonrpc: '2.0',
  id: 1,
  method: 'initialize',
  params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'flood', version: '1' } },
});
const HEADERS = { 'content-type': 'application/json', accept: 'application/json, text/event-stream' };

async function freePort() {
  const server = createServer();
  await new Promise((done) => server.listen(0, '127.0.0.1', done));
  const { port } = server.address();
  await new Promise((done) => server.close(done));
  return port;
}

async function rssKb(pid) {
  const status = await readFile(`/proc/${pid}/status`, 'utf8');
  return Number(/VmRSS:\s+(\d+)/.exec(status)[1]);
}

async function run(label, sessions) {
  const dir = await mkdtemp(join(tmpdir(), 'mcp-fs-flood-'));
  await mkdir(join(dir, 'ws'));
  const config = join(dir, 'config.yaml');
  await writeFile(config, `log_level: error\nsessions: ${sessions}\nroots:\n  - { name: ws, path: ws, allowed_tools: ["*"] }\n`);
  const port = await freePort();
  const child = spawn(process.execPath, [resolve('dist/main.js'), '--config', config, '--port', String(port)], { stdio: 'ignore' });
  const url = `http://127.0.0.1:${port}/mcp`;
  for (;;) {
    try {
      if ((await fetch(`http://127.0.0.1:${port}/health`)).ok) break;
    } catch {}
    await new Promise((done) => setTimeout(done, 50));
  }
  // Warm up (JIT, module caches) with one session, ended again.
  const warm = await fetch(url, { method: 'POST', headers: HEADERS, body: INITIALIZE });
  await warm.text();
  await fetch(url, { method: 'DELETE', headers: { 'mcp-session-id': warm.headers.get('mcp-session-id') } });
  await new Promise((done) => setTimeout(done, 500));
  const before = await rssKb(child.pid);
  const statuses = {};
  for (let i = 0; i < COUNT; i += 1) {
    const response = await fetch(url, { method: 'POST', headers: HEADERS, body: INITIALIZE });
    await response.text();
    statuses[response.status] = (statuses[response.status] ?? 0) + 1;
  }
  await new Promise((done) => setTimeout(done, 1000));
  const after = await rssKb(child.pid);
  child.kill('SIGKILL');
  await rm(dir, { recursive: true, force: true });
  const opened = statuses[200] ?? 0;
  console.log(
    JSON.stringify({
      label,
      initializes: COUNT,
      statuses,
      rss_before_mb: Math.round(before / 1024),
      rss_after_mb: Math.round(after / 1024),
      kb_per_open_session: opened > 0 ? Math.round((after - before) / opened) : null,
    }),
  );
}

await run('every session admitted', `{ max: ${COUNT}, max_per_principal: ${COUNT} }`);
await run('default caps (max 1000, max_per_principal 100)', '{}');
await run('max 1000 reached (max_per_principal raised to 1000)', '{ max: 1000, max_per_principal: 1000 }');
