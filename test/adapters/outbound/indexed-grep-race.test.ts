import { spawn } from 'node:child_process';
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { mkdtemp, realpath, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { NodeFileSystem } from '../../../src/adapters/outbound/node-file-system.js';
import { Re2RegexEngine } from '../../../src/adapters/outbound/re2-regex-engine.js';
import { SystemClock } from '../../../src/adapters/outbound/system-clock.js';
import type { Root } from '../../../src/domain/roots.js';
import { IgnoreRuleCache } from '../../../src/domain/search/ignore-rule-cache.js';
import { SearchIndexes } from '../../../src/domain/search/search-indexes.js';
import { TreeSnapshots } from '../../../src/domain/search/tree-snapshots.js';
import { NodeFileWatcher } from '../../../src/adapters/outbound/watch/node-file-watcher.js';
import { Grep } from '../../../src/domain/tools/grep.js';
import { rootAccess, TEST_SETTINGS } from '../../support/domain.js';
import { makeRoot } from '../../support/roots.js';

const FILES = 40;
/** Greps that must each overlap at least one finished rewrite round: the race is bounded by writes, not by a clock. */
const RACED_GREPS = 20;
/** Generous, for a loaded machine: the writer and the greps share two cores with other work. */
const DEADLINE_MS = 30_000;

/**
 * The writer: a separate process that, round after round, rewrites every file (half in place, half by
 * rename over it, so inodes change too) with its round number on a needle or a hay line, then records
 * the round as finished. Stops when the stop file appears. Each line ends in ' end': a file rewritten
 * in place while a grep reads it may be read cut short at the size it had when opened (reads stop
 * there, as for a growing log), and a line without its end is such a torn read, not a stale line.
 */
const WRITER = `
const fs = require('fs');
const [dir, stopFile] = process.argv.slice(1);
for (let round = 1; !fs.existsSync(stopFile); round += 1) {
  for (let i = 0; i < ${FILES}; i += 1) {
    const text = (round + i) % 3 === 0 ? 'hay v' + round + ' end\\n' : 'needle v' + round + ' end\\n';
    const file = dir + '/f' + i + '.txt';
    if (i % 2 === 0) fs.writeFileSync(file, text);
    else { fs.writeFileSync(file + '.tmp', text); fs.renameSync(file + '.tmp', file); }
  }
  fs.writeFileSync(dir + '/../round', String(round));
}
`;

let base: string;
let dir: string;
let root: Root;

beforeEach(async () => {
  base = await realpath(await mkdtemp(join(tmpdir(), 'indexed-grep-race-')));
  dir = join(base, 'root');
  mkdirSync(dir);
  for (let i = 0; i < FILES; i += 1) writeFileSync(join(dir, `f${i}.txt`), 'needle v0\n');
  root = makeRoot('workspace', dir);
});

afterEach(async () => {
  await rm(base, { recursive: true, force: true });
});

let snapshots: TreeSnapshots | undefined;

afterEach(() => {
  snapshots?.close();
  snapshots = undefined;
});

/** Issue 31.2: with `walkless`, the indexed grep also answers from the walk snapshot a tree watch keeps exact. */
async function indexedGrep(walkless: boolean): Promise<{ indexed: Grep; scan: Grep; indexes: SearchIndexes }> {
  const fs = new NodeFileSystem();
  const indexes = new SearchIndexes(fs, { mode: 'auto', maxBytes: 1 << 24, minRootBytes: 0, maxFileBytes: 1 << 20, ignore: 'gitignore' }, new IgnoreRuleCache());
  snapshots = walkless ? new TreeSnapshots(fs, new NodeFileWatcher(fs), { mode: 'auto', ignore: 'gitignore', maxDirectories: 100, minEntries: 0, maxEntries: 100_000 }, new IgnoreRuleCache()) : undefined;
  const grep = (withIndex?: SearchIndexes) => new Grep(fs, new SystemClock(), new Re2RegexEngine(), TEST_SETTINGS, rootAccess(root), new IgnoreRuleCache(), withIndex, withIndex && snapshots);
  indexes.ready(root);
  await indexes.settled(root);
  await snapshots?.settled(root);
  expect(indexes.ready(root)?.size).toBe(FILES);
  return { indexed: grep(indexes), scan: grep(), indexes };
}

describe.each([false, true])('indexed grep on the Node file system (walk snapshot: %s)', (walkless) => {
  it('never returns a stale line while another process rewrites the files', async () => {
    const { indexed, scan, indexes } = await indexedGrep(walkless);
    const stopFile = join(base, 'stop');
    const writer = spawn(process.execPath, ['-e', WRITER, dir, stopFile], { stdio: 'ignore' });
    const roundNow = () => {
      try {
        return Number(readFileSync(join(base, 'round'), 'utf8'));
      } catch {
        return 0;
      }
    };
    let greps = 0;
    let raced = 0;
    let torn = 0;
    try {
      const deadline = Date.now() + DEADLINE_MS;
      while (raced < RACED_GREPS && Date.now() < deadline) {
        const finished = roundNow();
        const result = await indexed.execute({ root: 'workspace', pattern: 'needle v\\d+', max_results: 1000 });
        greps += 1;
        // Only a grep during which the writer finished a round raced it.
        if (roundNow() > finished) raced += 1;
        for (const match of result.matches) {
          const complete = /^needle v(\d+) end$/.exec(match.line_content);
          if (complete === null) {
            // A prefix of a needle line, cut where a shorter version of the file ended when grep opened it.
            expect(match.line_content).toMatch(/^needle v\d+ ?e?n?$/);
            torn += 1;
            continue;
          }
          // Every file was rewritten in round `finished` before the call: an older line is stale.
          expect(Number(complete[1])).toBeGreaterThanOrEqual(finished);
        }
        expect(new Set(result.matches.map((match) => match.file)).size).toBe(result.matches.length);
      }
    } finally {
      writeFileSync(stopFile, '');
      await new Promise((resolve) => writer.once('exit', resolve));
    }
    process.stderr.write(`indexed grep race: ${JSON.stringify({ walkless, greps, raced, torn, rounds: roundNow(), answered: snapshots?.answered })}\n`);
    if (walkless) expect(snapshots!.answered.fromSnapshot).toBeGreaterThan(0);
    expect(raced).toBe(RACED_GREPS);
    await indexes.settled(root);
    const input = { root: 'workspace', pattern: 'needle', max_results: 1000 };
    expect(await indexed.execute(input)).toEqual(await scan.execute(input));
  }, 60_000);

  it('finds a file created just before the call, never one deleted just before', async () => {
    const { indexed } = await indexedGrep(walkless);
    writeFileSync(join(dir, 'fresh.txt'), 'needle fresh\n');
    rmSync(join(dir, 'f3.txt'));
    const files = (await indexed.execute({ root: 'workspace', pattern: 'needle', max_results: 1000 })).matches.map((match) => match.file);
    expect(files).toContain('fresh.txt');
    expect(files).not.toContain('f3.txt');
    expect(files).toHaveLength(FILES);
    if (walkless) expect(snapshots!.answered).toEqual({ fromSnapshot: 1, byWalk: 0 });
  });
});
