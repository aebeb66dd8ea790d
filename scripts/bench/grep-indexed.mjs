// Issue 31.2's rows: grep through the trigram index. A server of its own with search.index on (the
// other servers run with it off, so their rows measure the scan): its first grep (the build starts
// then, and the grep itself scans), the build as a client sees it, then the repeated grep against rg -c.
import { execFile } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { promisify } from 'node:util';
import { EXPECT } from './corpus.mjs';
import { call, ourStdio } from './servers.mjs';
import { latency, timed } from './stats.mjs';

const run = promisify(execFile);
const GREP = { root: 'bench', path: 'text-200m', pattern: 'needle_[0-9]{4}', max_results: 1000 };
const GLOB = { root: 'bench', path: 'tree-100k', pattern: '**/*.ts', max_results: 100_000 };
/** How long the build may take before the rows give up on it. */
const BUILD_LIMIT_MS = 600_000;

function peakRssMiB(pid) {
  return import('node:fs').then(({ readFileSync }) => {
    const match = /VmHWM:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
    return match ? Number(match[1]) / 1024 : undefined;
  });
}

async function ourGrep(client) {
  const r = await call(client, 'grep', GREP);
  if (r.total_matches !== EXPECT.needles || r.truncated || r.timed_out) throw new Error(`indexed grep: ${r.total_matches} matches, truncated ${r.truncated}`);
}

async function ourGlob(client) {
  const r = await call(client, 'glob', GLOB);
  if (r.total_matches !== EXPECT.treeTs || r.truncated) throw new Error(`glob: ${r.total_matches} matches, truncated ${r.truncated}`);
}

async function rgFiles(dir) {
  const out = (await run('rg', ['--files', '-g', '*.ts', dir], { maxBuffer: 1 << 28 })).stdout;
  if (out.split('\n').filter(Boolean).length !== EXPECT.treeTs) throw new Error('rg --files');
}

/** Issue 31.2: glob answered from the walk snapshot (a tree watch keeps it exact) against rg --files, interleaved. */
async function globRow(client, ctx, rounds) {
  const walked = (await timed(() => ourGlob(client))).ms;
  // The snapshot builds in the background after the first search: a client sees it when a glob takes under half a walk.
  const started = performance.now();
  let last = Infinity;
  while (last > walked / 2 && performance.now() - started < BUILD_LIMIT_MS) {
    await new Promise((resolve) => setTimeout(resolve, 500));
    last = (await timed(() => ourGlob(client))).ms;
  }
  const samples = { ours: [], rg: [] };
  // Nine pairs even with --quick (about 5 s): three left the ratio to a single noisy pair of this shared machine.
  for (let round = 0; round < Math.max(rounds, 9); round += 1) {
    samples.ours.push((await timed(() => ourGlob(client))).ms);
    if (ctx.tools.rg) samples.rg.push((await timed(() => rgFiles(join(ctx.corpus, 'tree-100k')))).ms);
  }
  const ours = latency(samples.ours);
  const rg = ctx.tools.rg ? latency(samples.rg) : undefined;
  const value = rg ? ours.median / rg.median : undefined;
  return {
    name: `repeated glob **/*.ts, 100k files, from the walk snapshot (ready ${((performance.now() - started) / 1000).toFixed(1)} s after the first)`,
    ours,
    reference: undefined,
    floors: [['rg --files -g *.ts', rg ?? 'n/a'], ['first glob (a walk)', latency([walked])]],
    ratio: value === undefined ? 'rg n/a' : `${value.toFixed(2)}× rg`,
    bar: '≤ 1.0× rg --files',
    met: value === undefined ? undefined : value <= 1.0,
  };
}

async function rgCount(dir) {
  const out = (await run('rg', ['-c', GREP.pattern, dir], { maxBuffer: 1 << 24 })).stdout;
  const total = out.split('\n').filter(Boolean).reduce((sum, line) => sum + Number(line.split(':').pop()), 0);
  if (total !== EXPECT.needles) throw new Error(`rg -c: ${total}`);
}

/** The first grep's time on a server started for it (stopped after). */
async function firstGrep(env, ctx) {
  const server = await ourStdio(ctx.config, { MCP_FS_JOURNAL_ENABLED: 'false', ...env });
  try {
    return (await timed(() => ourGrep(server.client))).ms;
  } finally {
    await server.close();
  }
}

export async function grepIndexed(ctx) {
  const rounds = ctx.quick ? 3 : 9;
  const dir = join(ctx.corpus, 'text-200m');
  const scan = [];
  for (let i = 0; i < rounds; i += 1) scan.push((await timed(() => ourGrep(ctx.ours))).ms);
  // The first grep of a fresh server pays for a cold process (JIT, RE2, the worker starting): its
  // floor is the first grep of a fresh server with the index off, not a warm server's median.
  const firstScan = [];
  for (let i = 0; i < rounds; i += 1) firstScan.push(await firstGrep({ MCP_FS_SEARCH_INDEX: 'off' }, ctx));
  // A state directory of its own: the first grep finds no stored index (it builds one), and a second
  // server started on it after the save finds that one (the next conversation's first grep).
  const stateHome = mkdtempSync(join(dirname(ctx.config), 'index-state-'));
  const indexed = { MCP_FS_SEARCH_INDEX: 'auto', MCP_FS_JOURNAL_ENABLED: 'false', XDG_STATE_HOME: stateHome };
  const server = await ourStdio(ctx.config, indexed);
  try {
    const first = (await timed(() => ourGrep(server.client))).ms;
    const firstScanMedian = latency(firstScan).median;
    // The build runs in the background: a client sees it done when a grep takes under half a scan.
    const started = performance.now();
    const scanMedian = latency(scan).median;
    let last = Infinity;
    while (last > scanMedian / 2 && performance.now() - started < BUILD_LIMIT_MS) {
      await new Promise((resolve) => setTimeout(resolve, 500));
      last = (await timed(() => ourGrep(server.client))).ms;
    }
    const buildMs = performance.now() - started;
    // The walk snapshot builds after the index (its first search starts it): the glob row waits for it.
    const glob = await globRow(server.client, ctx, rounds);
    const samples = { ours: [], rg: [] };
    // Nine pairs even with --quick (about 1 s), as the glob row: of three, the first came right after the
    // glob row's last 3.4 MB message (the v1 client's own 10 ms of CPU for it), and one noisy pair of this
    // shared machine set the median.
    for (let round = 0; round < Math.max(rounds, 9); round += 1) {
      samples.ours.push((await timed(() => ourGrep(server.client))).ms);
      if (ctx.tools.rg) samples.rg.push((await timed(() => rgCount(dir))).ms);
    }
    const ours = latency(samples.ours);
    const rg = ctx.tools.rg ? latency(samples.rg) : undefined;
    const value = rg ? ours.median / rg.median : undefined;
    const peak = await peakRssMiB(server.pid);
    const stored = await firstGrepStored(indexed, stateHome, ctx, rounds);
    return {
      rows: [
        {
          name: 'first grep while the index builds (vs the scan today)',
          ours: latency([first]),
          reference: undefined,
          floors: [['first grep, fresh server, index off', latency(firstScan)], ['scan (index off, warm server)', latency(scan)]],
          ratio: `${(first / firstScanMedian).toFixed(2)}× first scan (${(first / scanMedian).toFixed(2)}× warm scan)`,
          bar: '≤ 1.0× first scan',
          met: first <= firstScanMedian * 1.1,
        },
        {
          name: `repeated grep, indexed (build ${(buildMs / 1000).toFixed(1)} s as a client sees it; server peak RSS ${peak?.toFixed(0) ?? 'n/a'} MiB)`,
          ours,
          reference: undefined,
          floors: [['rg -c', rg ?? 'n/a'], ['scan (index off)', latency(scan)]],
          ratio: value === undefined ? 'rg n/a' : `${value.toFixed(2)}× rg`,
          bar: '≤ 0.2× rg -c',
          met: value === undefined ? undefined : value <= 0.2,
        },
        {
          name: 'first grep of a new server that finds the stored index (vs the scan today)',
          ours: stored,
          reference: undefined,
          floors: [['first grep, fresh server, index off', latency(firstScan)]],
          ratio: `${(stored.median / firstScanMedian).toFixed(2)}× first scan`,
          bar: '≤ 1.0× first scan',
          met: stored.median <= firstScanMedian * 1.1,
        },
        glob,
      ],
    };
  } finally {
    await server.close();
    rmSync(stateHome, { recursive: true, force: true });
  }
}

/** The first grep of new servers on the state directory that holds the stored index (once it is saved). */
async function firstGrepStored(env, stateHome, ctx, rounds) {
  const dir = join(stateHome, 'mcp-filesystem', 'index');
  const started = performance.now();
  while (!(existsSync(dir) && readdirSync(dir).some((name) => name.endsWith('.idx'))) && performance.now() - started < BUILD_LIMIT_MS) {
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  const samples = [];
  for (let i = 0; i < rounds; i += 1) samples.push(await firstGrep(env, ctx));
  return latency(samples);
}
