import { isDeepStrictEqual } from 'node:util';
import type { WorkContext } from '../../src/domain/work-context.js';
import type { JournalLimits } from '../../src/domain/changes/journal-bounds.js';
import {
  changeOrdinals,
  clientText,
  diskSnapshot,
  expandArgs,
  expandChanges,
  forgetDigests,
  leakIn,
  modelSnapshot,
  outcomeOf,
  outsideHash,
  snapshotDifferences,
  type Outcome,
} from './invariants.js';
import { diskJournal, journalIds, modelJournal } from './journal.js';
import { journalContents, journalDifference, journalLitter, undidEverything } from './journal-invariants.js';
import { operationSpec, type Operation } from './operations.js';
import { picksOf, type TreeSpec } from './trees.js';
import { buildTools, FIXED_CLOCK, makeHosts, nodeFileSystem, removeHosts, seedDisk, seedModel, SESSION, type Hosts, type Tools } from './worlds.js';

/** Totals over a fuzzing session, for the runner's summary. */
export const totals = { runs: 0, operations: 0, outcomes: new Map<string, number>() };

function count(key: string): void {
  totals.outcomes.set(key, (totals.outcomes.get(key) ?? 0) + 1);
}

/** Counts what each tool came to (ok, or its error code; each undo's outcomes too), so a run shows what it exercised. */
export function tally(tool: string, settled: PromiseSettledResult<unknown>): void {
  count(`${tool} ${settled.status === 'fulfilled' ? 'ok' : ((settled.reason as { code?: string }).code ?? 'crash')}`);
  const results = settled.status === 'fulfilled' ? (settled.value as { results?: { outcome: string; op?: string; reason?: string }[] }).results : undefined;
  for (const result of results ?? []) count(`  undo: ${result.outcome} ${result.outcome === 'not_undoable' ? `(${whyNot(result.reason)})` : (result.op ?? '')}`);
}

/** The kind of reason a change is not undoable, without its paths and sizes. */
function whyNot(reason: string | undefined): string {
  return (reason ?? '').replace(/\(.*$/, '').replace(/[:;,].*$/, '').slice(0, 40).trim();
}

export interface RunOptions {
  /** Every scan read counted as cold (the Node adapter's thread-pool read-ahead), or the adapter's default. */
  readonly coldReads: boolean;
  /** The change journal's limits, the same in both worlds. */
  readonly journal: JournalLimits;
}

/** One call as the MCP adapter makes it: the journal's author context names this tool's call while it runs. */
export function callTool(tools: Tools, tool: string, args: Record<string, unknown>, work: WorkContext): Promise<unknown> {
  return tools.journal.authors.run({ principal: 'local', session: SESSION, tool }, true, () => operationSpec(tool).run(tools, args, work));
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
    const onModel = buildTools(model, hosts, modelJournal(FIXED_CLOCK), options.journal);
    // The disk side's grep is answered through a trigram index built on the seeded tree (issue 31.2),
    // the model's by a scan: every operation in between (writes, moves, removals, link swaps) must leave them equal.
    const onDisk = buildTools(nodeFileSystem(options.coldReads ? { coldReadMs: 0 } : {}), hosts, diskJournal(hosts.journal, FIXED_CLOCK), options.journal, { indexed: true });
    await onDisk.indexReady();
    const outsideBefore = outsideHash(hosts);
    const seeded = diskSnapshot(hosts.root);
    check(0, 'the seeded tree', modelSnapshot(model, hosts.root), seeded);
    totals.runs += 1;
    const picks = picksOf(tree);
    for (const [index, operation] of operations.entries()) {
      const args = expandArgs(operation.args, hosts, picks);
      // Change ids differ between the worlds: each resolves `$CHANGE<n>` in its own journal.
      const modelArgs = expandChanges(args, await journalIds(onModel.journal.store));
      const diskArgs = expandChanges(args, await journalIds(onDisk.journal.store));
      const fromModel = await settle(() => callTool(onModel, operation.tool, modelArgs, WORK));
      const fromDisk = await settle(() => callTool(onDisk, operation.tool, diskArgs, WORK));
      totals.operations += 1;
      tally(operation.tool, fromDisk);
      const where = `operation ${index + 1} ${operation.tool} ${JSON.stringify(operation.args)} (run as ${JSON.stringify(diskArgs).replaceAll(hosts.base, '$BASE')})`;
      for (const [side, settled, sent] of [['model', fromModel, modelArgs], ['node', fromDisk, diskArgs]] as const) {
        const leak = leakIn(clientText(settled), hosts, sent);
        if (leak) throw new Error(`ESCAPE (${leak}) from the ${side} adapter after ${where}:\n${clientText(settled).slice(0, SHOWN)}`);
      }
      const modelIds = changeOrdinals(await journalIds(onModel.journal.store));
      const diskIds = changeOrdinals(await journalIds(onDisk.journal.store));
      const a = outcomeOf(fromModel, modelIds);
      const b = outcomeOf(fromDisk, diskIds);
      if ('crash' in a || 'crash' in b) throw new Error(`CRASH after ${where}:\n  model: ${describeOutcome(a)}\n  node:  ${describeOutcome(b)}`);
      if (!isDeepStrictEqual(a, b)) {
        throw new Error(`DISAGREEMENT after ${where}: ${firstDifference(JSON.stringify(a), JSON.stringify(b))}`);
      }
      const journals = journalDifference(await journalContents(onModel.journal.store, modelIds), await journalContents(onDisk.journal.store, diskIds));
      if (journals !== null) throw new Error(`JOURNALS DIFFER after ${where}: ${journals}`);
      const disk = diskSnapshot(hosts.root);
      check(index + 1, where, modelSnapshot(model, hosts.root), disk);
      const litter = journalLitter(disk);
      if (litter.length > 0) throw new Error(`ESCAPE (journal files inside the root: ${litter.join(', ')}) after ${where}`);
      if (outsideHash(hosts) !== outsideBefore) throw new Error(`ESCAPE (the tree outside the root changed) after ${where}`);
      if (undidEverything(operation.tool, operation.args, fromDisk)) {
        count(`  undo of everything since the start, ${(a as { ok: { results: unknown[] } }).ok.results.length > 0 ? 'some' : 'no'} changes: the seeded tree is back`);
        check(index + 1, `${where}, which undid every change since the start: the seeded tree (as seeded | as now)`, seeded, disk);
      }
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
