// Issue 31's start-up row: a stdio start to its first result with the journal pre-filled to 1 GiB,
// against the reference server, a bare `node -e 0`, and the same start with an empty journal
// (against a build before the journal when MCPFS_BENCH_BASELINE names its dist/main.js).
// Each start's CPU time to its first result (all its threads, from /proc) is printed beside the wall
// time: on a machine loaded by other work the wall times swing with the load, the CPU times much less.
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { filledJournal } from './journal-fill.mjs';
import { call, referenceStdio, stdioClient, OUR_MAIN } from './servers.mjs';
import { latency } from './stats.mjs';
import { expectEqual, interleaved, ratio, ratioText } from './workloads.mjs';

const run = promisify(execFile);
const GiB = 1024 ** 3;

export async function startupJournal(ctx) {
  const rounds = ctx.quick ? 3 : 7;
  const path = join(ctx.corpus, 'small-4k.txt');
  const expected = readFileSync(path, 'utf8');
  const full = await filledJournal(GiB);
  const empty = mkdtempSync(join(tmpdir(), 'mcpfs-bench-empty-journal-'));
  const emptyJournalDir = join(empty, 'journal');
  const baseline = process.env.MCPFS_BENCH_BASELINE;
  const cpu = {};
  const spent = (name, ms) => (cpu[name] ??= []).push(ms);
  // a9ba1fc knows no search.index setting: it gets the same config without that line.
  const baselineConfig = join(empty, 'baseline.yaml');
  writeFileSync(baselineConfig, readFileSync(ctx.config, 'utf8').replace(/^ +index: .*\n/m, ''));
  const start = (name, main, env, config = ctx.config) => async () => {
    const s = await stdioClient([main, '--stdio', '--config', config], env);
    expectEqual('startup read_file', (await call(s.client, 'read_file', { root: 'bench', path: 'small-4k.txt' })).content, expected);
    spent(name, cpuMs(s.pid));
    await s.close();
  };
  const variants = {
    // The untimed first round is the one that reads a freshly filled journal in full and writes its checkpoint.
    full: start('full', OUR_MAIN, { MCP_FS_JOURNAL_DIR: full }),
    empty: start('empty', OUR_MAIN, { MCP_FS_JOURNAL_DIR: emptyJournalDir }),
    reference: async () => {
      const s = await referenceStdio(ctx.corpus);
      await call(s.client, 'read_text_file', { path });
      spent('reference', cpuMs(s.pid));
      await s.close();
    },
    // Its CPU time as it ends (what `node -e 0` costs, give or take the one call).
    node: async () => {
      const { stdout } = await run(process.execPath, ['-e', 'const u = process.cpuUsage(); process.stdout.write(String((u.user + u.system) / 1000))']);
      spent('node', Number(stdout));
    },
    ...(baseline && existsSync(baseline) ? { baseline: start('baseline', baseline, {}, baselineConfig) } : {}),
  };
  try {
    const samples = await interleaved(rounds, variants);
    const ours = latency(samples.full);
    const ref = latency(samples.reference);
    const node = latency(samples.node);
    const emptyJournal = latency(samples.empty);
    const before = samples.baseline ? latency(samples.baseline) : undefined;
    // The first sample of each is the untimed warm-up round's.
    const cpuMedian = (name) => (cpu[name]?.length > 1 ? latency(cpu[name].slice(1)).median : undefined);
    const cpuText = (name) => `${cpuMedian(name)?.toFixed(0) ?? 'n/a'} ms`;
    const toRef = ratio(ours.median, ref.median);
    const toNode = ratio(ours.median, node.median);
    const emptyTo = before ? ratio(emptyJournal.median, before.median) : ratio(emptyJournal.median, ref.median);
    return {
      name: 'startup with a 1 GiB journal: spawn → initialize → first read_file (stdio)',
      ours,
      reference: ref,
      floors: [['node -e 0', node], ['empty journal', emptyJournal], ...(before ? [['build before the journal', before]] : [])],
      ratio:
        `${ratioText(toRef, 'ref')}, ${ratioText(toNode, 'node')}; empty journal ${ratioText(emptyTo, before ? 'a9ba1fc' : 'ref')}; ` +
        `CPU medians: 1 GiB ${cpuText('full')}, empty ${cpuText('empty')}, ref ${cpuText('reference')}, node ${cpuText('node')}${before ? `, a9ba1fc ${cpuText('baseline')}` : ''} ` +
        `(${ratioText(ratio(cpuMedian('full'), cpuMedian('reference')), 'ref')}, ${ratioText(ratio(cpuMedian('full'), cpuMedian('node')), 'node')}` +
        `${before ? `, empty ${ratioText(ratio(cpuMedian('empty'), cpuMedian('baseline')), 'a9ba1fc')}` : ''})`,
      bar: `≤ reference, ≤ 4× node -e 0; empty journal ≤ 1.1× ${before ? 'a9ba1fc' : 'reference'}`,
      met: toRef <= 1 && toNode <= 4 && emptyTo <= 1.1,
    };
  } finally {
    rmSync(empty, { recursive: true, force: true });
  }
}

/** CPU time (user + system, every thread) a live process has spent, in ms: /proc/PID/stat's utime and stime, in clock ticks of 10 ms. */
function cpuMs(pid) {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return (Number(fields[11]) + Number(fields[12])) * 10;
}
