import fc from 'fast-check';
import { runDifferential, totals } from './differential.js';
import { journalLimitsArb } from './journal.js';
import { operationsArb } from './operations.js';
import { treeArb } from './trees.js';

export interface FuzzOptions {
  readonly runs: number;
  readonly seed?: number;
  /** A counterexample's path from an earlier failure: replays that very case (and shrinks no further). */
  readonly path?: string;
  /** Longest operation sequence per run. */
  readonly maxOperations?: number;
  readonly log?: (line: string) => void;
  /** Stop starting new runs after this long (a clean stop, reported with its counts), for runs against a deadline. */
  readonly timeLimitMs?: number;
}

export interface FuzzReport {
  readonly seed: number;
  readonly runs: number;
  readonly operations: number;
  /** Null when every run held; else fast-check's report: the shrunk case, its seed and path, the replay command. */
  readonly failure: string | null;
}

/** The differential property: a random tree, a random sequence of operations, both adapters agree throughout. */
export function differentialProperty(maxOperations: number) {
  return fc.asyncProperty(treeArb, operationsArb(maxOperations), fc.boolean(), journalLimitsArb, (tree, operations, coldReads, journal) =>
    runDifferential(tree, operations, { coldReads, journal }),
  );
}

/** Runs fast-check with a seed (given or drawn) and reports as the runner and the tests print it. */
export async function checkWith<T extends unknown[]>(
  property: fc.IAsyncPropertyWithHooks<T>,
  options: FuzzOptions,
  mode: string,
): Promise<FuzzReport> {
  const seed = options.seed ?? (Date.now() ^ (Math.random() * 0x7fffffff)) | 0;
  const before = { ...totals };
  const progress = options.log && setInterval(() => options.log?.(`… ${totals.runs - before.runs} runs, ${totals.operations - before.operations} operations`), 60_000);
  const details = await fc
    .check(property, {
      seed,
      path: options.path,
      numRuns: options.runs,
      endOnFailure: options.path !== undefined,
      interruptAfterTimeLimit: options.timeLimitMs,
    })
    .finally(() => clearInterval(progress));
  const report = {
    seed,
    runs: totals.runs - before.runs,
    operations: totals.operations - before.operations,
    failure: details.failed ? failureText(details, mode) : null,
  };
  return report;
}

function failureText<T>(details: fc.RunDetails<T>, mode: string): string {
  const replay = `npm run fuzz --${mode === 'concurrent' ? ' --concurrent' : ''} --seed ${details.seed} --path ${details.counterexamplePath}`;
  const error = details.errorInstance instanceof Error ? details.errorInstance.message : String(details.errorInstance);
  return `${error}\n\n${fc.defaultReportMessage(details) ?? 'failed'}\n\nReplay: ${replay}`;
}

export async function fuzzDifferential(options: FuzzOptions): Promise<FuzzReport> {
  return checkWith(differentialProperty(options.maxOperations ?? 30), options, 'sequential');
}
