import { fuzzConcurrent } from './concurrent.js';
import { totals } from './differential.js';
import { fuzzDifferential, type FuzzReport } from './property.js';
import { fuzzWalkless } from './walkless.js';

/**
 * `npm run fuzz -- --runs N [--concurrent] [--seed S --path P] [--ops M] [--stats] [--minutes T]`: a long run, or the replay
 * of a failure (its seed and path, as a failure prints them). Exits 1 on any disagreement or escape.
 */
function parse(argv: readonly string[]) {
  const value = (flag: string): string | undefined => {
    const at = argv.indexOf(flag);
    return at >= 0 ? argv[at + 1] : undefined;
  };
  const number = (flag: string): number | undefined => (value(flag) === undefined ? undefined : Number(value(flag)));
  return {
    runs: number('--runs') ?? 100,
    seed: number('--seed'),
    path: value('--path'),
    maxOperations: number('--ops'),
    concurrent: argv.includes('--concurrent'),
    walkless: argv.includes('--walkless'),
    stats: argv.includes('--stats'),
    timeLimitMs: number('--minutes') === undefined ? undefined : Number(value('--minutes')) * 60_000,
    log: (line: string) => console.log(line),
  };
}

async function main(): Promise<void> {
  const options = parse(process.argv.slice(2));
  const mode = options.walkless ? 'walkless' : options.concurrent ? 'concurrent' : 'sequential';
  const started = Date.now();
  const report: FuzzReport = options.walkless
    ? await fuzzWalkless(options)
    : options.concurrent
      ? await fuzzConcurrent(options)
      : await fuzzDifferential(options);
  const seconds = ((Date.now() - started) / 1000).toFixed(1);
  console.log(`mode: ${mode}  seed: ${report.seed}  runs: ${report.runs}  operations: ${report.operations}  time: ${seconds} s`);
  if (options.stats) {
    for (const [key, count] of [...totals.outcomes].sort()) console.log(`  ${key.padEnd(40)} ${count}`);
  }
  if (report.failure) {
    console.log(report.failure);
    process.exitCode = 1;
  } else {
    console.log(options.concurrent ? 'escapes: 0' : 'disagreements: 0  escapes: 0');
    if (report.runs < options.runs) console.log(`stopped by --minutes after ${report.runs} of ${options.runs} runs`);
  }
}

await main();
