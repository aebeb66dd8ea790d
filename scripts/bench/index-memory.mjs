// Issue 31.2: the trigram index's memory, build time, encoded size and lookup time, in process (no
// server, no MCP): `node --expose-gc scripts/bench/index-memory.mjs DIR [MAX_FILES]`. Bundles the
// domain sources with esbuild first, so it measures the working tree without `npm run build`.
import { lstatSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { build } from 'esbuild';

const [dir, limitArg] = process.argv.slice(2);
const limit = Number(limitArg ?? Infinity);
const out = `/tmp/index-memory-${process.pid}.mjs`;
const here = new URL('../../src/domain/search/', import.meta.url).pathname;
await build({
  stdin: { contents: `export * from './trigram-index.ts'; export * from './index-codec.ts'; export * from './index-freshness.ts'; export * from './regex-trigrams.ts'; export { looksBinary } from '../tools/file-text.ts';`, resolveDir: here, loader: 'ts' },
  bundle: true, platform: 'node', format: 'esm', outfile: out, logLevel: 'error',
});
const { TrigramIndex, encodeIndex, decodeIndex, IndexedLookup, trigramQueryOf, looksBinary } = await import(out);

const MiB = (bytes) => (bytes / 1048576).toFixed(1);
// Freed array buffers are swept after a collection, not in it: collect, let the sweep run, collect again.
const heap = async () => {
  global.gc?.();
  await new Promise((resolve) => setTimeout(resolve, 200));
  global.gc?.();
  const m = process.memoryUsage();
  return m.heapUsed + m.arrayBuffers;
};
const peakRss = () => process.resourceUsage().maxRSS * 1024;
let peakHeap = 0;
const sample = () => { const m = process.memoryUsage(); peakHeap = Math.max(peakHeap, m.heapUsed + m.arrayBuffers); };

const base = await heap();
const startRss = peakRss();
const index = new TrigramIndex(Number.MAX_SAFE_INTEGER);
const files = [];
let count = 0;
let text = 0;
const started = performance.now();
const walk = (rel) => {
  for (const name of readdirSync(join(dir, rel)).sort()) {
    if (count >= limit) return;
    const path = rel === '' ? name : `${rel}/${name}`;
    const stat = lstatSync(join(dir, path));
    if (stat.isDirectory()) walk(path);
    else if (stat.isFile()) {
      const bytes = readFileSync(join(dir, path));
      index.add(path, { size: stat.size, modifiedMs: stat.mtime.getTime(), inode: stat.ino }, bytes, looksBinary(bytes));
      text += bytes.length;
      count += 1;
      if (count % 1000 === 1) files.push(path);
      if (count % 5000 === 0) sample();
    }
  }
};
walk('');
const buildMs = performance.now() - started;
const built = (await heap()) - base;
console.log(`files ${index.size}, text ${MiB(text)} MiB, keys ${index.keyCount}; build ${(buildMs / 1000).toFixed(1)} s`);
console.log(`index: ${MiB(built)} MiB retained (${MiB((built / index.size) * 1e5)} per 100k files), bytes() ${MiB(index.bytes)}; peak heap+buffers during build +${MiB(peakHeap - base)} MiB; peak RSS ${MiB(peakRss())} MiB (${MiB(startRss)} at start)`);

let t = performance.now();
const sealed = encodeIndex(index);
console.log(`encoded ${MiB(sealed.length)} MiB (${((sealed.length / text) * 100).toFixed(1)}% of the text) in ${((performance.now() - t) / 1000).toFixed(1)} s; peak RSS ${MiB(peakRss())}`);
t = performance.now();
const back = decodeIndex(sealed, Number.MAX_SAFE_INTEGER);
console.log(`decoded ${back?.size} files in ${((performance.now() - t) / 1000).toFixed(1)} s; peak RSS ${MiB(peakRss())}`);

// The index's share of a repeated grep: the candidates, then a verdict per file (every file is stamped by the walk).
const stats = new Map();
for (const path of files) {
  const stat = lstatSync(join(dir, path));
  stats.set(path, { size: stat.size, modifiedAt: stat.mtime, inode: stat.ino });
}
const paths = index.paths();
const times = [];
for (let round = 0; round < 7; round += 1) {
  t = performance.now();
  const lookup = new IndexedLookup(index, trigramQueryOf('needle_[0-9]{4}', { caseInsensitive: false }));
  let searched = 0;
  for (const path of paths) {
    const found = index.lookup(path);
    const stat = stats.get(path) ?? { size: found.file.stamp.size, modifiedAt: new Date(found.file.stamp.modifiedMs), inode: found.file.stamp.inode };
    if (lookup.verdict(path, stat) === 'search') searched += 1;
  }
  times.push(performance.now() - t);
  if (round === 0) console.log(`needle query: ${searched} files to read`);
}
times.sort((a, b) => a - b);
console.log(`lookup of every file + candidates: median ${times[3].toFixed(0)} ms (min ${times[0].toFixed(0)})`);
