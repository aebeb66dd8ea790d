import { isDeepStrictEqual } from 'node:util';
import type { WorkContext } from '../../src/domain/work-context.js';
import {
  clientText,
  diskSnapshot,
  expandArgs,
  forgetDigests,
  leakIn,
  modelSnapshot,
  outcomeOf,
  outsideHash,
  snapshotDifferences,
  type Outcome,
} from './invariants.js';
import { operationSpec, type Operation } from './operations.js';
import { picksOf, type TreeSpec } from './trees.js';
import { buildTools, makeHosts, nodeFileSystem, removeHosts, seedDisk, seedModel, type Hosts } from './worlds.js';

/** Totals over a fuzzing session, for the runner's summary. */
export const totals = { runs: 0, operations: 0, outcomes: new Map<string, number>() };

/** Counts what each tool came to (ok, or its error code), so a run shows what it exercised. */
export function tally(tool: string, settled: PromiseSettledResult<unknown>): void {
  const key = `${tool} ${settled.status === 'fulfilled' ? 'ok' : ((settled.reason as { code?: string }).code ?? 'crash')}`;
  totals.outcomes.set(key, (totals.outcomes.get(key) ?? 0) + 1);
}

export interface RunOptions {
  /** Every scan read counted as cold (the Node adapter's thread-pool read-ahead), or the adapter's default. */
  readonly coldReads: boolean;
}

const WORK: WorkContext = { signal: { aborted: false }, progress: () => undefined };
const SHOWN = 1500;

/** One call on one side, never rejecting: its settled result. */
async function settle(call: () => Promise<unknown>): Promise<PromiseSettledResult<unknown>> {
  try {
    return { status: 'fulfilled', value: await call() };
  } catch (reason) {
    return { status: 'rejected', reason };
  }
}

/** Where two JSON texts part, with some context on both sides. */
function firstDifference(a: string, b: string): string {
  let at = 0;
  while (at < a.length && at < b.length && a[at] === b[at]) at += 1;
  const from = Math.max(0, at - 200);
  return `at character ${at}:\n  model: …${a.slice(from, at + SHOWN / 3)}\n  node:  …${b.slice(from, at + SHOWN / 3)}`;
}

function describeOutcome(outcome: Outcome): string {
  return JSON.stringify(outcome).slice(0, SHOWN);
}

/**
 * Runs `operations` against the model and the Node adapter from the same tree and throws at the
 * first operation after which they disagree or anything escapes; the message says which and why.
 */
export async function runDifferential(tree: TreeSpec, operations: readonly Operation[], options: RunOptions): Promise<void> {
  const hosts = makeHosts();
  try {
    seedDisk(hosts, tree);
    const model = seedModel(hosts, tree);
    const onModel = buildTools(model, hosts);
    const onDisk = buildTools(nodeFileSystem(options.coldReads ? { coldReadMs: 0 } : {}), hosts);
    const outsideBefore = outsideHash(hosts);
    check(0, 'the seeded tree', modelSnapshot(model, hosts.root), diskSnapshot(hosts.root));
    totals.runs += 1;
    const picks = picksOf(tree);
    for (const [index, operation] of operations.entries()) {
      const spec = operationSpec(operation.tool);
      const args = expandArgs(operation.args, hosts, picks);
      const fromModel = await settle(() => spec.run(onModel, args, WORK));
      const fromDisk = await settle(() => spec.run(onDisk, args, WORK));
      totals.operations += 1;
      tally(operation.tool, fromDisk);
      const where = `operation ${index + 1} ${operation.tool} ${JSON.stringify(operation.args)} (run as ${JSON.stringify(args).replaceAll(hosts.base, '$BASE')})`;
      for (const [side, settled] of [['model', fromModel], ['node', fromDisk]] as const) {
        const leak = leakIn(clientText(settled), hosts, args);
        if (leak) throw new Error(`ESCAPE (${leak}) from the ${side} adapter after ${where}:\n${clientText(settled).slice(0, SHOWN)}`);
      }
      const a = outcomeOf(fromModel);
      const b = outcomeOf(fromDisk);
      if ('crash' in a || 'crash' in b) throw new Error(`CRASH after ${where}:\n  model: ${describeOutcome(a)}\n  node:  ${describeOutcome(b)}`);
      if (!isDeepStrictEqual(a, b)) {
        throw new Error(`DISAGREEMENT after ${where}: ${firstDifference(JSON.stringify(a), JSON.stringify(b))}`);
      }
      check(index + 1, where, modelSnapshot(model, hosts.root), diskSnapshot(hosts.root));
      if (outsideHash(hosts) !== outsideBefore) throw new Error(`ESCAPE (the tree outside the root changed) after ${where}`);
    }
  } finally {
    forgetDigests();
    removeHosts(hosts);
  }
}

function check(_index: number, where: string, model: Map<string, string>, disk: Map<string, string>): void {
  const differences = snapshotDifferences(model, disk);
  if (differences.length > 0) throw new Error(`TREES DIFFER after ${where}:\n  ${differences.slice(0, 20).join('\n  ')}`);
}

export type { Hosts };
