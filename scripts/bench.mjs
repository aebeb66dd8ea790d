#!/usr/bin/env node
// Performance figures for NFR-001..NFR-005, measured end to end over Streamable HTTP against the
// compiled server (run `npm run bench`, which builds first). Prints figures and the spec's targets;
// it asserts nothing, so a busy machine gives slower numbers rather than a failing test run.
import 'reflect-metadata';
import { mkdtemp, mkdir, realpath, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { HttpServer } from '../dist/adapters/inbound/http/http-app.js';
import { buildContainer } from '../dist/composition/container.js';
import { defaultSettings } from '../dist/config/schema.js';

const silentLogger = { debug() {}, info() {}, warn() {}, error() {} };

async function timed(action) {
  const started = performance.now();
  const result = await action();
  return { ms: performance.now() - started, result };
}

function summary(samples) {
  const sorted = [...samples].sort((a, b) => a - b);
  const at = (q) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))];
  return `median ${at(0.5).toFixed(1)} ms, p95 ${at(0.95).toFixed(1)} ms, max ${sorted[sorted.length - 1].toFixed(1)} ms (n=${samples.length})`;
}

async function call(client, name, args) {
  const result = await client.callTool({ name, arguments: args });
  if (result.isError) throw new Error(`${name} failed: ${result.content[0]?.text}`);
  return result.structuredContent;
}

async function main() {
  const rootDir = await realpath(await mkdtemp(join(tmpdir(), 'mcp-fs-bench-')));
  const config = {
    host: '127.0.0.1',
    port: 0,
    allowedHosts: ['127.0.0.1', 'localhost'],
    logLevel: 'error',
    settings: { ...defaultSettings('bench'), search: { ...defaultSettings('bench').search, maxResultsLimit: 100000 } },
    roots: [{ name: 'bench', path: rootDir, allowedTools: ['*'] }],
  };
  const http = buildContainer(config, { logger: silentLogger }).get(HttpServer);
  const { baseUrl } = await http.start();
  const client = new Client({ name: 'bench', version: '1.0.0' });
  await client.connect(new StreamableHTTPClientTransport(new URL(`${baseUrl}/mcp`)));
  const root = 'bench';
  try {
    console.log(`mcp-filesystem benchmark (node ${process.version}, over Streamable HTTP on ${baseUrl})\n`);

    const line = 'the quick brown fox jumps over the lazy dog 0123456789\n';
    await writeFile(join(rootDir, 'one-mb.txt'), line.repeat(Math.floor(1_000_000 / line.length)));
    const reads = [];
    for (let i = 0; i < 50; i += 1) reads.push((await timed(() => call(client, 'read_file', { root, path: 'one-mb.txt' }))).ms);
    console.log(`NFR-001 read_file, full read of a 1 MB file (target < 100 ms): ${summary(reads)}`);

    const lineReads = [];
    for (let i = 0; i < 20; i += 1) {
      lineReads.push((await timed(() => call(client, 'read_file', { root, path: 'one-mb.txt', offset_lines: 9000, limit_lines: 50 }))).ms);
    }
    console.log(`         read_file, 50 lines at line 9000 of the same file: ${summary(lineReads)}`);

    await mkdir(join(rootDir, 'big'));
    for (let i = 0; i < 10_000; i += 1) await writeFile(join(rootDir, 'big', `file-${i}.txt`), 'x');
    const listings = [];
    for (let i = 0; i < 5; i += 1) listings.push((await timed(() => call(client, 'list_folder', { root, path: 'big' }))).ms);
    console.log(`NFR-002 list_folder, 10,000 entries (target < 1000 ms): ${summary(listings)}`);

    const chunk = Buffer.alloc(1024 * 1024, 'a');
    const large = join(rootDir, 'fifty-mb.bin');
    await writeFile(large, Buffer.concat(Array.from({ length: 50 }, () => chunk)));
    global.gc?.();
    const before = process.memoryUsage();
    const hash = await timed(() => call(client, 'hash_file', { root, path: 'fifty-mb.bin', algorithm: 'sha256' }));
    const after = process.memoryUsage();
    const rise = (after.rss - before.rss) / 1024 / 1024;
    console.log(`NFR-003 hash_file sha256 of 50 MB: ${hash.ms.toFixed(0)} ms, rss change ${rise.toFixed(1)} MB (streamed in 32 KB chunks)`);
    await rm(large);

    await writeFile(join(rootDir, 'small.txt'), line.repeat(100));
    const sequential = await timed(async () => {
      for (let i = 0; i < 50; i += 1) await call(client, 'read_file', { root, path: 'small.txt' });
    });
    const clients = await Promise.all(
      Array.from({ length: 5 }, async () => {
        const c = new Client({ name: 'bench', version: '1.0.0' });
        await c.connect(new StreamableHTTPClientTransport(new URL(`${baseUrl}/mcp`)));
        return c;
      }),
    );
    const concurrent = await timed(() =>
      Promise.all(Array.from({ length: 50 }, (_, i) => call(clients[i % clients.length], 'read_file', { root, path: 'small.txt' }))),
    );
    await Promise.all(clients.map((c) => c.close()));
    console.log(
      `NFR-005 50 read_file calls: sequential ${sequential.ms.toFixed(0)} ms, 50 concurrent over 5 sessions ${concurrent.ms.toFixed(0)} ms`,
    );

    for (let d = 0; d < 20; d += 1) {
      await mkdir(join(rootDir, 'tree', `d${d}`), { recursive: true });
      for (let f = 0; f < 100; f += 1) {
        await writeFile(join(rootDir, 'tree', `d${d}`, `f${f}.go`), `package x\n// TODO: item ${f}\n${line.repeat(40)}`);
      }
    }
    const grep = await timed(() => call(client, 'grep', { root, path: 'tree', pattern: 'TODO', max_results: 100000 }));
    console.log(`NFR-004 grep over 2,000 files (~4.5 MB): ${grep.ms.toFixed(0)} ms, ${grep.result.total_matches} matches`);
    const glob = await timed(() => call(client, 'glob', { root, pattern: 'tree/**/*.go', max_results: 100000 }));
    console.log(`        glob tree/**/*.go over 2,000 files: ${glob.ms.toFixed(0)} ms, ${glob.result.total_matches} matches`);
  } finally {
    await client.close();
    await http.stop();
    await rm(rootDir, { recursive: true, force: true });
  }
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
