#!/usr/bin/env node
// Two builds of our server, one call each in turn, so that the machine's noise hits both alike: for a
// change whose effect is smaller than the noise between two `npm run bench` runs (a few per cent here).
//
//   npm run build && mkdir -p .ab && rm -rf .ab/before && cp -r dist .ab/before   # on the old commit
//   npm run build                                                                  # on the new one
//   node scripts/bench/ab.mjs .ab/before/main.js dist/main.js 11 glob '{"root":"bench","path":"tree-100k","pattern":"**/*.ts","max_results":100000}'
//
// A build must sit inside this repository (`.ab/` is git-ignored) so that it finds node_modules (re2).
// Both servers run the bench corpus over stdio. Run it both ways round too: the order alone moved the
// ratio by 2-4% here (either way, from one hour to the next), so one order proves nothing under 5%.
import { ensureCorpus } from './corpus.mjs';
import { call, stdioClient, writeConfig } from './servers.mjs';
import { latency } from './stats.mjs';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';

const [first, second, roundsText, tool, argsText] = process.argv.slice(2);
if (!first || !second || !tool) {
  console.error('usage: node scripts/bench/ab.mjs A_MAIN B_MAIN ROUNDS TOOL \'{"json":"arguments"}\'');
  process.exit(2);
}
const rounds = Number(roundsText ?? 11);
const args = JSON.parse(argsText ?? '{}');
const scratch = mkdtempSync(join(tmpdir(), 'mcpfs-ab-'));
const config = writeConfig(scratch, ensureCorpus());
const servers = { A: await stdioClient([resolve(first), '--stdio', '--config', config]), B: await stdioClient([resolve(second), '--stdio', '--config', config]) };
const samples = { A: [], B: [] };
try {
  // Once each untimed: code warms up, the corpus comes back into the page cache.
  for (const name of ['A', 'B']) await call(servers[name].client, tool, args);
  for (let round = 0; round < rounds; round += 1) {
    for (const name of round % 2 === 0 ? ['A', 'B'] : ['B', 'A']) {
      const started = performance.now();
      await call(servers[name].client, tool, args);
      samples[name].push(performance.now() - started);
    }
  }
} finally {
  await Promise.allSettled([servers.A.close(), servers.B.close()]);
  rmSync(scratch, { recursive: true, force: true });
}
const a = latency(samples.A);
const b = latency(samples.B);
console.log(`A ${first}: median ${a.median.toFixed(2)} ms (p95 ${a.p95.toFixed(2)})`);
console.log(`B ${second}: median ${b.median.toFixed(2)} ms (p95 ${b.p95.toFixed(2)})`);
console.log(`B ÷ A: ${(b.median / a.median).toFixed(3)}`);
