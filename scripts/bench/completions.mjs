#!/usr/bin/env node
// Issue 33 §5: completion/complete of a path in a folder of 20,000 entries, per call, before (every
// call lists and sorts the folder) and after (the listing kept per version of the folder). In-process,
// on the built dist/ and a real folder in the temp directory; it asserts nothing about time.
//
//   npm run build && node scripts/bench/completions.mjs [entries] [calls]
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { NodeFileSystem } from '../../dist/adapters/outbound/node-file-system.js';
import { PathPolicy } from '../../dist/domain/path-policy.js';
import { ToolPolicy } from '../../dist/domain/tool-policy.js';
import { RootAccess } from '../../dist/domain/tools/root-access.js';
import { CompletePath } from '../../dist/domain/tools/complete-path.js';

const entries = Number(process.argv[2] ?? 20_000);
const calls = Number(process.argv[3] ?? 30);
const dir = mkdtempSync(join(tmpdir(), 'mcpfs-complete-bench-'));
try {
  mkdirSync(join(dir, 'big'));
  for (let i = 0; i < entries; i += 1) writeFileSync(join(dir, 'big', `file-${String(i).padStart(5, '0')}.txt`), '');
  // Past the 100 ms in which a folder just changed has no version.
  await new Promise((resolve) => setTimeout(resolve, 200));
  const root = { name: 'bench', hostPath: dir, allowedTools: ToolPolicy.expand(['*']), configuredTools: ['*'] };
  const access = new RootAccess(new PathPolicy([root]), new ToolPolicy());
  const fs = new NodeFileSystem();
  const before = new CompletePath(access, fs, { get: (_version, read) => read() });
  const after = new CompletePath(access, fs);
  const prefixes = ['big/file-1', 'big/file-12', 'big/f', 'big/file-199'];
  const times = { before: [], after: [] };
  for (let i = 0; i < calls; i += 1) {
    for (const [name, complete] of [['before', before], ['after', after]]) {
      const start = performance.now();
      const answer = await complete.paths('bench', prefixes[i % prefixes.length]);
      times[name].push(performance.now() - start);
      if (answer.total === 0) throw new Error(`${name}: no completions`);
    }
  }
  const median = (list) => [...list].sort((a, b) => a - b)[Math.floor(list.length / 2)];
  const p95 = (list) => [...list].sort((a, b) => a - b)[Math.ceil(list.length * 0.95) - 1];
  console.log(`completion/complete path in a folder of ${entries} entries, ${calls} calls each (ms)`);
  console.log('| variant | first call | median | p95 |');
  console.log('|---|---|---|---|');
  for (const name of ['before', 'after']) console.log(`| ${name} | ${times[name][0].toFixed(1)} | ${median(times[name]).toFixed(1)} | ${p95(times[name]).toFixed(1)} |`);
} finally {
  rmSync(dir, { recursive: true, force: true });
}
