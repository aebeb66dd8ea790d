import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import fc from 'fast-check';
import type { WorkContext } from '../../src/domain/work-context.js';
import type { JournalLimits } from '../../src/domain/changes/journal-bounds.js';
import { callTool, tally, totals } from './differential.js';
import { clientText, diskSnapshot, expandArgs, expandChanges, leakIn, outsideHash } from './invariants.js';
import { diskJournal, journalIds, journalLimitsArb } from './journal.js';
import { journalLitter } from './journal-invariants.js';
import { operationsArb, type Operation } from './operations.js';
import { checkWith, type FuzzOptions, type FuzzReport } from './property.js';
import { allEntries, encodeText, picksOf, treeArb, type TreeEntry, type TreeSpec } from './trees.js';
import { buildTools, FIXED_CLOCK, makeHosts, nodeFileSystem, removeHosts, seedDisk } from './worlds.js';
import { DomainError } from '../../src/domain/errors.js';

/**
 * The swapper: a separate process (real concurrency) that, in a tight loop, swaps every top-level entry
 * of the root with a link to the outside and back: a directory by rename (with a gap in between), a
 * file or link atomically (a link renamed over it); the links point at the canaries and at the
 * journal directory (its records and before-images). It works only directly in the root, which is
 * never swapped itself, so none of its own renames or links can land outside. Prints its rounds.
 */
const SWAPPER = `
const fs = require('fs');
const [root, outside, journal, stopFile, namesJson] = process.argv.slice(1);
const names = JSON.parse(namesJson);
const at = (name) => root + '/' + name;
const quietly = (action) => { try { action(); } catch {} };
console.log('ready');
let rounds = 0;
while (!fs.existsSync(stopFile)) {
  for (const [index, name] of names.entries()) {
    const keep = at(name + '.swap-keep');
    const tmp = at(name + '.swap-tmp');
    let kind;
    try { kind = fs.lstatSync(at(name)); } catch { continue; }
    const target = [outside, outside + '/canary.txt', '../outside/canary.txt', '../outside', journal, journal + '/records'][(rounds + index) % 6];
    if (kind.isDirectory()) {
      quietly(() => fs.renameSync(at(name), keep));
      quietly(() => fs.symlinkSync(target, at(name)));
      quietly(() => fs.unlinkSync(at(name)));
      quietly(() => fs.renameSync(keep, at(name)));
    } else {
      quietly(() => fs.renameSync(at(name), keep));
      quietly(() => fs.unlinkSync(tmp));
      quietly(() => fs.symlinkSync(target, tmp));
      quietly(() => fs.renameSync(tmp, at(name)));
      quietly(() => fs.renameSync(keep, at(name)));
    }
  }
  rounds += 1;
}
console.log(String(rounds));
`;

/** Always there to be swapped, whatever the tree: a directory of files, a file, and a directory the scans enter. */
const FIXED: readonly TreeEntry[] = [
  { kind: 'dir', path: 'sub' },
  { kind: 'file', path: 'sub/notes.txt', bytes: encodeText('alpha\nneedle\n'), mode: 0o644 },
  { kind: 'file', path: 'notes.txt', bytes: encodeText('needle\nbeta\n'), mode: 0o644 },
  { kind: 'dir', path: 'a' },
  { kind: 'file', path: 'a/b', bytes: encodeText('x\n'), mode: 0o644 },
];

function withFixedEntries(tree: TreeSpec): TreeSpec {
  const fixedPaths = new Set(FIXED.map((entry) => entry.path));
  // Entries below a fixed name are dropped: the fixed one may be a file where the tree had a directory.
  const rest = tree.entries.filter((entry) => ![...fixedPaths].some((path) => entry.path === path || entry.path.startsWith(`${path}/`)));
  return { ...tree, entries: [...FIXED, ...rest] };
}

const WORK: WorkContext = { signal: { aborted: false }, progress: () => undefined };
/** Calls run this many at a time, so the adapter's own concurrency (locks, shared helpers) is raced too. */
const PARALLEL = 3;
export const swapRounds = { total: 0 };

async function startSwapper(root: string, outside: string, journal: string, stopFile: string, names: string[]): Promise<ChildProcess> {
  const child = spawn(process.execPath, ['-e', SWAPPER, root, outside, journal, stopFile, JSON.stringify(names)], { stdio: ['ignore', 'pipe', 'inherit'] });
  child.stdout?.setEncoding('utf8');
  let output = '';
  child.stdout?.on('data', (chunk: string) => (output += chunk));
  while (!output.includes('ready')) await once(child.stdout!, 'data');
  (child as ChildProcess & { output: () => string }).output = () => output;
  return child;
}

async function stopSwapper(child: ChildProcess, stopFile: string): Promise<number> {
  writeFileSync(stopFile, '');
  if (child.exitCode === null) await once(child, 'exit');
  const lines = (child as ChildProcess & { output: () => string }).output().trim().split('\n');
  return Number(lines[lines.length - 1]) || 0;
}

/**
 * The security invariant under concurrent swaps, on the Node adapter alone (the model cannot race):
 * no canary content, host path or stack trace in any result or error, nothing but DomainErrors, and
 * the tree outside the root unchanged.
 */
export async function runConcurrent(generated: TreeSpec, operations: readonly Operation[], coldReads: boolean, journal: JournalLimits): Promise<void> {
  const tree = withFixedEntries(generated);
  const hosts = makeHosts();
  const stopFile = join(hosts.base, 'stop-swapper');
  let swapper: ChildProcess | undefined;
  try {
    seedDisk(hosts, tree);
    const tools = buildTools(nodeFileSystem(coldReads ? { coldReadMs: 0 } : {}), hosts, diskJournal(hosts.journal, FIXED_CLOCK), journal);
    const outsideBefore = outsideHash(hosts);
    const topLevel = [...new Set(allEntries(tree).map((entry) => entry.path.split('/')[0]))];
    swapper = await startSwapper(hosts.root, hosts.outside, hosts.journal, stopFile, topLevel);
    totals.runs += 1;
    const picks = picksOf(tree);
    for (let from = 0; from < operations.length; from += PARALLEL) {
      // Undos run too: their ids are drawn from the journal as the batch starts (a batch may undo its own changes' neighbours).
      const ids = await journalIds(tools.journal.store);
      await Promise.all(operations.slice(from, from + PARALLEL).map(async (operation, offset) => {
        const args = expandChanges(expandArgs(operation.args, hosts, picks), ids);
        let settled: PromiseSettledResult<unknown>;
        try {
          settled = { status: 'fulfilled', value: await callTool(tools, operation.tool, args, WORK) };
        } catch (reason) {
          settled = { status: 'rejected', reason };
        }
        totals.operations += 1;
        tally(operation.tool, settled);
        const where = `operation ${from + offset + 1} ${operation.tool} ${JSON.stringify(operation.args)}`;
        const leak = leakIn(clientText(settled), hosts, args);
        if (leak) throw new Error(`ESCAPE (${leak}) under swaps after ${where}:\n${clientText(settled).slice(0, 1500)}`);
        if (settled.status === 'rejected' && !(settled.reason instanceof DomainError)) {
          throw new Error(`CRASH under swaps after ${where}: ${clientText(settled).slice(0, 1500)}`);
        }
      }));
      if (outsideHash(hosts) !== outsideBefore) throw new Error(`ESCAPE (the tree outside the root changed) under swaps, operations ${from + 1}..${from + PARALLEL}`);
    }
    // Walked once the swapper has stopped: a walk while it renames meets entries that vanish under it.
    swapRounds.total += await stopSwapper(swapper, stopFile);
    swapper = undefined;
    const litter = journalLitter(diskSnapshot(hosts.root));
    if (litter.length > 0) throw new Error(`ESCAPE (journal files inside the root: ${litter.join(', ')}) after a run under swaps`);
  } finally {
    if (swapper) swapRounds.total += await stopSwapper(swapper, stopFile);
    removeHosts(hosts);
  }
}

export async function fuzzConcurrent(options: FuzzOptions): Promise<FuzzReport> {
  const property = fc.asyncProperty(treeArb, operationsArb(options.maxOperations ?? 40), fc.boolean(), journalLimitsArb, (tree, operations, coldReads, journal) =>
    runConcurrent(tree, operations, coldReads, journal),
  );
  const report = await checkWith(property, options, 'concurrent');
  options.log?.(`swapper rounds: ${swapRounds.total}`);
  return report;
}
