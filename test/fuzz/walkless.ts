import { appendFileSync, mkdirSync, mkdtempSync, renameSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { isDeepStrictEqual } from 'node:util';
import fc from 'fast-check';
import { NodeFileSystem } from '../../src/adapters/outbound/node-file-system.js';
import { Re2RegexEngine } from '../../src/adapters/outbound/re2-regex-engine.js';
import { NodeFileWatcher } from '../../src/adapters/outbound/watch/node-file-watcher.js';
import { IgnoreRuleCache } from '../../src/domain/search/ignore-rule-cache.js';
import { SearchIndexes } from '../../src/domain/search/search-indexes.js';
import { TreeSnapshots } from '../../src/domain/search/tree-snapshots.js';
import { Glob } from '../../src/domain/tools/glob.js';
import { Grep } from '../../src/domain/tools/grep.js';
import { Move } from '../../src/domain/tools/move.js';
import { WriteFile } from '../../src/domain/tools/write-file.js';
import { RemoveFile } from '../../src/domain/tools/remove-file.js';
import { rootAccess } from '../support/domain.js';
import { makeRoot } from '../support/roots.js';
import type { FuzzOptions, FuzzReport } from './property.js';
import { FIXED_CLOCK, SETTINGS } from './worlds.js';

/**
 * Issue 31.2's proof: grep and glob answered from a walk snapshot (kept exact by the tree watch,
 * grep through the trigram index) against the same calls answered by a walk of the same disk, after
 * random edits, creates, deletes, renames and link swaps made outside the server (fs calls) and
 * through it (its write tools). Any difference is a disagreement.
 */
const NAMES = ['a.txt', 'b.md', 'c.txt', 'd', 'e.log'];
const DIRS = ['', 'src', 'src/deep', 'docs', 'logs'];
const TEXTS = ['needle one\nhay', 'hay\nstack', 'needle_1234 here', 'foo bar\nneedle', '', 'x'.repeat(40)];

const where = fc.tuple(fc.constantFrom(...DIRS), fc.constantFrom(...NAMES)).map(([dir, name]) => (dir === '' ? name : `${dir}/${name}`));
const text = fc.constantFrom(...TEXTS);
export const walklessOperation = fc.oneof(
  fc.record({ op: fc.constant('write' as const), path: where, text }),
  fc.record({ op: fc.constant('append' as const), path: where, text }),
  fc.record({ op: fc.constant('delete' as const), path: where }),
  fc.record({ op: fc.constant('rename' as const), path: where, to: where }),
  fc.record({ op: fc.constant('mkdir' as const), path: where }),
  fc.record({ op: fc.constant('rmdir' as const), path: fc.constantFrom(...DIRS.slice(1)) }),
  fc.record({ op: fc.constant('renameDir' as const), path: fc.constantFrom(...DIRS.slice(1)), to: fc.constantFrom('moved', 'src/moved', 'docs2') }),
  fc.record({ op: fc.constant('swapDirForLink' as const), path: fc.constantFrom(...DIRS.slice(1)), outside: fc.boolean() }),
  fc.record({ op: fc.constant('swapFileForLink' as const), path: where, outside: fc.boolean() }),
  fc.record({ op: fc.constant('ignoreFile' as const), dir: fc.constantFrom(...DIRS), rules: fc.constantFrom('*.log\n', 'deep/\n', '*.md\n!b.md\n', '') }),
  fc.record({ op: fc.constant('toolWrite' as const), path: where, text }),
  fc.record({ op: fc.constant('toolDelete' as const), path: where }),
  fc.record({ op: fc.constant('toolMove' as const), path: where, to: where }),
);
export type WalklessOperation = typeof walklessOperation extends fc.Arbitrary<infer T> ? T : never;

const GREPS = [
  { pattern: 'needle' },
  { pattern: 'needle_[0-9]{4}', glob_filter: '*.txt' },
  { pattern: 'hay|stack', context_lines: 1 },
  { pattern: 'needle', path: 'src' },
  { pattern: 'needle', ignore: 'none' },
];
const GLOBS = [{ pattern: '**/*' }, { pattern: '**/*.txt', type_filter: 'file' }, { regex: 'deep', path: 'src' }, { pattern: '*', max_depth: 1 }, { pattern: '**', max_results: 3 }];

export const walklessTotals = { runs: 0, operations: 0, comparisons: 0, disagreements: 0, fromSnapshot: 0, byWalk: 0 };

/** One run: seed a tree, build the index and snapshot, then after each operation compare every call. */
export async function runWalkless(operations: readonly WalklessOperation[]): Promise<void> {
  const base = mkdtempSync(join(tmpdir(), 'walkless-'));
  const rootDir = join(base, 'root');
  const outside = join(base, 'outside');
  mkdirSync(join(rootDir, 'src', 'deep'), { recursive: true });
  mkdirSync(join(rootDir, 'docs'));
  mkdirSync(join(rootDir, 'logs'));
  mkdirSync(join(outside, 'src'), { recursive: true });
  writeFileSync(join(outside, 'needle.txt'), 'needle outside\n');
  writeFileSync(join(outside, 'src', 'a.txt'), 'needle outside\n');
  writeFileSync(join(rootDir, '.gitignore'), '*.log\n');
  TEXTS.forEach((body, i) => writeFileSync(join(rootDir, DIRS[i % DIRS.length]!, NAMES[i % NAMES.length]!), body));
  const fs = new NodeFileSystem();
  const root = makeRoot('workspace', rootDir);
  const access = rootAccess(root);
  const regex = new Re2RegexEngine();
  const indexes = new SearchIndexes(fs, { mode: 'auto', maxBytes: 1 << 24, minRootBytes: 0, maxFileBytes: SETTINGS.maxFileSize, ignore: 'gitignore' }, new IgnoreRuleCache());
  const snapshots = new TreeSnapshots(fs, new NodeFileWatcher(fs), { mode: 'auto', ignore: 'gitignore', maxDirectories: 1000, minEntries: 0, maxEntries: 100_000 }, new IgnoreRuleCache());
  const walkless = { grep: new Grep(fs, FIXED_CLOCK, regex, SETTINGS, access, new IgnoreRuleCache(), indexes, snapshots), glob: new Glob(fs, FIXED_CLOCK, regex, SETTINGS, access, new IgnoreRuleCache(), undefined, snapshots) };
  const walking = { grep: new Grep(fs, FIXED_CLOCK, regex, SETTINGS, access), glob: new Glob(fs, FIXED_CLOCK, regex, SETTINGS, access) };
  const tools = { write: new WriteFile(access, fs, SETTINGS), remove: new RemoveFile(access, fs), move: new Move(fs, access) };
  try {
    indexes.ready(root);
    await indexes.settled(root);
    await snapshots.settled(root);
    walklessTotals.runs += 1;
    for (const [index, operation] of operations.entries()) {
      await apply(operation, rootDir, outside, tools).catch(() => undefined);
      walklessTotals.operations += 1;
      // Now and then the snapshot has caught up with every change (a rebuild after a rule file or a new folder).
      if (index % 3 === 2) await snapshots.settled(root);
      await compare(walkless, walking, `after operation ${index + 1} of ${JSON.stringify(operations.slice(0, index + 1))}`);
    }
  } finally {
    walklessTotals.fromSnapshot += snapshots.answered.fromSnapshot;
    walklessTotals.byWalk += snapshots.answered.byWalk;
    snapshots.close();
    indexes.close();
    rmSync(base, { recursive: true, force: true });
  }
}

type Searches = { grep: Grep; glob: Glob };

async function compare(walkless: Searches, walking: Searches, where: string): Promise<void> {
  for (const input of GREPS) await same('grep', input, () => walkless.grep.execute({ root: 'workspace', ...input }), () => walking.grep.execute({ root: 'workspace', ...input }), where);
  for (const input of GLOBS) await same('glob', input, () => walkless.glob.execute({ root: 'workspace', ...input }), () => walking.glob.execute({ root: 'workspace', ...input }), where);
}

async function same(tool: string, input: object, fast: () => Promise<unknown>, slow: () => Promise<unknown>, where: string): Promise<void> {
  const a = await settle(fast);
  const b = await settle(slow);
  walklessTotals.comparisons += 1;
  if (!isDeepStrictEqual(a, b)) {
    walklessTotals.disagreements += 1;
    throw new Error(`DISAGREEMENT ${tool} ${JSON.stringify(input)} ${where}:\n  walkless: ${JSON.stringify(a).slice(0, 1500)}\n  walking:  ${JSON.stringify(b).slice(0, 1500)}`);
  }
}

async function settle(call: () => Promise<unknown>): Promise<unknown> {
  try {
    return { ok: await call() };
  } catch (error) {
    return { error: (error as { code?: string }).code ?? String(error) };
  }
}

async function apply(operation: WalklessOperation, rootDir: string, outside: string, tools: { write: WriteFile; remove: RemoveFile; move: Move }): Promise<void> {
  const at = (path: string) => join(rootDir, path);
  switch (operation.op) {
    case 'write':
      return writeFileSync(at(operation.path), operation.text);
    case 'append':
      return appendFileSync(at(operation.path), operation.text);
    case 'delete':
      return rmSync(at(operation.path), { force: true });
    case 'rename':
      return renameSync(at(operation.path), at(operation.to));
    case 'mkdir':
      return void mkdirSync(at(operation.path), { recursive: true });
    case 'rmdir':
      return rmSync(at(operation.path), { recursive: true, force: true });
    case 'renameDir':
      return renameSync(at(operation.path), at(operation.to));
    case 'swapDirForLink':
    case 'swapFileForLink':
      rmSync(at(operation.path), { recursive: true, force: true });
      return symlinkSync(operation.outside ? join(outside, operation.op === 'swapDirForLink' ? 'src' : 'needle.txt') : at(operation.op === 'swapDirForLink' ? 'docs' : 'src/a.txt'), at(operation.path));
    case 'ignoreFile':
      return writeFileSync(at(operation.dir === '' ? '.gitignore' : `${operation.dir}/.gitignore`), operation.rules);
    case 'toolWrite':
      return void (await tools.write.execute({ root: 'workspace', path: operation.path, content: operation.text, mode: 'overwrite' }));
    case 'toolDelete':
      return void (await tools.remove.execute({ root: 'workspace', path: operation.path }));
    case 'toolMove':
      return void (await tools.move.execute({ source_root: 'workspace', source_path: operation.path, dest_root: 'workspace', dest_path: operation.to }));
  }
}

/** `npm run fuzz -- --walkless --runs N [--seed S --path P] [--ops M]`: the property above, reported as the runner prints it. */
export async function fuzzWalkless(options: FuzzOptions): Promise<FuzzReport> {
  const seed = options.seed ?? (Date.now() ^ (Math.random() * 0x7fffffff)) | 0;
  const before = { ...walklessTotals };
  const property = fc.asyncProperty(fc.array(walklessOperation, { minLength: 1, maxLength: options.maxOperations ?? 12 }), runWalkless);
  const details = await fc.check(property, { seed, path: options.path, numRuns: options.runs, endOnFailure: options.path !== undefined, interruptAfterTimeLimit: options.timeLimitMs });
  const counts = Object.fromEntries(Object.entries(walklessTotals).map(([key, value]) => [key, value - before[key as keyof typeof before]]));
  options.log?.(`walkless: ${JSON.stringify(counts)} (comparisons: grep and glob calls compared; fromSnapshot/byWalk: how the walkless side's walks were answered)`);
  const error = details.errorInstance instanceof Error ? details.errorInstance.message : String(details.errorInstance);
  const failure = details.failed ? `${error}\n\n${fc.defaultReportMessage(details) ?? 'failed'}\n\nReplay: npm run fuzz -- --walkless --seed ${details.seed} --path ${details.counterexamplePath}` : null;
  return { seed, runs: counts.runs!, operations: counts.operations!, failure };
}
