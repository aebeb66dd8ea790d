#!/usr/bin/env node
// `npm run bench`: issue 6's table, measured in one run on this machine. Our server over stdio and
// HTTP, the reference server (@modelcontextprotocol/server-filesystem, stdio), the same work done
// in-process with node:fs, and the system tools that exist here (rg, find, sha256sum, openssl).
// Variants run interleaved; every answer is checked. Prints medians, p95, ratios, bars and RSS.
// It asserts nothing about time: a busy machine gives slower figures, never a failing test run.
//
//   npm run bench -- [--quick] [--only startup,read4k,...] [--json FILE]
// startupJournal compares the empty-journal start-up with a build before the journal when
// MCPFS_BENCH_BASELINE names its dist/main.js (e.g. a9ba1fc, built in a copy made with git archive).
// vsV1 compares every stdio and legacy-HTTP row with the v1-SDK build when MCPFS_BENCH_V1 names its
// dist/main.js (8a02d63: git worktree add, npm ci, npm run build), call by call (issue 29 §4).
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ensureCorpus } from './bench/corpus.mjs';
import { floorHttp, ourHttp, ourStdio, referenceStdio, rssMiB, writeConfig } from './bench/servers.mjs';
import { renderTable } from './bench/stats.mjs';
import * as workloads from './bench/workloads.mjs';
import { vsV1 } from './bench/vs-v1.mjs';

const ORDER = ['startup', 'startupJournal', 'read4k', 'lineWindow', 'listFolder', 'glob', 'grep', 'hash', 'edit', 'journal', 'copyTree', 'httpSessions', 'stdioInFlight', 'latencyDuringGrep', 'diffDuringRewrites', 'grepCold', 'changesPage', 'grepIndexed', 'grepIndexed1M', 'vsV1'];

function parseArgs(argv) {
  const options = { quick: false, only: ORDER, json: undefined };
  for (let i = 0; i < argv.length; i += 1) {
    const arg = argv[i];
    if (arg === '--quick') options.quick = true;
    else if (arg === '--only') options.only = argv[(i += 1)].split(',');
    else if (arg === '--json') options.json = argv[(i += 1)];
    else if (arg === '--help') {
      console.log(`usage: npm run bench -- [--quick] [--only ${ORDER.join(',')}] [--json FILE]`);
      process.exit(0);
    } else throw new Error(`unknown option ${arg}`);
  }
  const unknown = options.only.filter((name) => !ORDER.includes(name));
  if (unknown.length) throw new Error(`unknown workload ${unknown.join(', ')}; known: ${ORDER.join(', ')}`);
  return options;
}

async function main() {
  const options = parseArgs(process.argv.slice(2));
  const corpus = ensureCorpus();
  const scratch = mkdtempSync(join(tmpdir(), 'mcpfs-bench-'));
  const config = writeConfig(scratch, corpus);
  const tools = Object.fromEntries(await Promise.all(['rg', 'find', 'sha256sum', 'openssl', 'python3'].map(async (t) => [t, await workloads.which(t)])));
  const missing = Object.entries(tools).filter(([, present]) => !present).map(([t]) => t);
  console.error(`system tools: ${Object.entries(tools).map(([t, p]) => `${t} ${p ? 'yes' : 'n/a'}`).join(', ')}`);
  if (missing.includes('rg')) console.error('rg is missing, so the glob and grep bars cannot be judged: apt-get install ripgrep');

  // The journal on (the default), in the scratch directory; and a second server with it off, for the journal rows.
  const ours = await ourStdio(config, { MCP_FS_JOURNAL_DIR: join(scratch, 'journal') });
  const oursNoJournal = await ourStdio(config, { MCP_FS_JOURNAL_ENABLED: 'false' });
  const reference = await referenceStdio(corpus);
  const oursHttpServer = await ourHttp(config);
  const floorServer = await floorHttp();
  const floorV1Server = await floorHttp({ v1: true });
  const oursHttp = await oursHttpServer.connect();
  // The same HTTP server, spoken to by a 2026-07-28 client (issue 29: the modern-HTTP column).
  const oursModern = await oursHttpServer.connectModern();
  const ctx = { corpus, config, quick: options.quick, tools, ours: ours.client, oursNoJournal: oursNoJournal.client, reference: reference.client, oursHttp, oursModern, oursHttpServer, floorServer, floorV1Server };
  const rows = [];
  try {
    for (const name of ORDER.filter((n) => options.only.includes(n))) {
      console.error(`running ${name}...`);
      try {
        const result = await (name === 'vsV1' ? vsV1 : workloads[name])(ctx);
        // A workload may measure several rows (journal: on vs off for two calls).
        for (const row of result.rows ?? [result]) rows.push({ id: name, check: true, ...row });
      } catch (error) {
        rows.push({ id: name, name, check: error.message, met: false });
      }
    }
    const rss = { oursStdio: rssMiB(ours.pid), oursHttp: rssMiB(oursHttpServer.pid), reference: rssMiB(reference.pid), floor: rssMiB(floorServer.pid), floorV1: rssMiB(floorV1Server.pid) };
    console.log(`\nmcp-filesystem benchmark — node ${process.version}, ${new Date().toISOString()}${options.quick ? ' (--quick)' : ''}\n`);
    console.log(renderTable(rows));
    const fmt = (v) => (v === undefined ? 'n/a' : `${v.toFixed(0)} MiB`);
    console.log(`\nRSS after the run: ours stdio ${fmt(rss.oursStdio)}, ours HTTP ${fmt(rss.oursHttp)}, reference ${fmt(rss.reference)}, SDK floor ${fmt(rss.floor)} (v1 ${fmt(rss.floorV1)})`);
    const failed = rows.filter((row) => row.check !== true);
    if (failed.length) console.log(`\nCHECK FAILED in ${failed.map((row) => row.id).join(', ')}: those figures do not count.`);
    if (options.json) writeFileSync(options.json, JSON.stringify({ node: process.version, quick: options.quick, tools, rss, rows }, null, 2));
  } finally {
    await Promise.allSettled([oursHttp.close(), oursModern.close(), ours.close(), oursNoJournal.close(), reference.close(), oursHttpServer.stop(), floorServer.stop(), floorV1Server.stop()]);
    rmSync(scratch, { recursive: true, force: true });
  }
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
