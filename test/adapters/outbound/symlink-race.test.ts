import { spawn, type ChildProcess } from 'node:child_process';
import { mkdirSync, readdirSync, readFileSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { mkdtemp, realpath, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { NodeFileSystem } from '../../../src/adapters/outbound/node-file-system.js';
import { ListingPrefetch } from '../../../src/adapters/outbound/node-fs/listing-prefetch.js';
import { PoolRead } from '../../../src/adapters/outbound/node-fs/cold-reads.js';
import { ParallelLstat } from '../../../src/adapters/outbound/node-fs/parallel-lstat.js';
import { DomainError } from '../../../src/domain/errors.js';
import type { WriteOptions } from '../../../src/domain/ports/file-system.port.js';
import type { RootPath } from '../../../src/domain/roots.js';
import { readLineWindow } from '../../../src/domain/tools/file-text.js';
import { makeRoot } from '../../support/roots.js';

/**
 * The race runs at least RACE_MS and until the test made MIN_ATTEMPTS attempts, so a loaded
 * machine races longer instead of racing less; MAX_RACE_MS caps it.
 */
const RACE_MS = 3000;
const MIN_ATTEMPTS = 1000;
const MAX_RACE_MS = 20_000;
const OUTSIDE_SECRET = 'OUTSIDE SECRET';
const INSIDE = 'inside content';
const LOOK_ALIKES = 40;

/**
 * The attacker: a separate process (real concurrency) that, in a tight loop, swaps
 * - `victim`: a real in-root directory <-> a link to the outside directory (rename, with a gap);
 * - `flip`: a link to the in-root `flip.in` <-> a link to the outside directory (atomic);
 * - `swap.txt`: a regular in-root file <-> a link to the outside secret (atomic).
 * Stops when the stop file appears (or at its hard deadline) and prints the number of completed rounds.
 */
const ATTACKER = `
const fs = require('fs');
const [root, outside, stopFile, ms] = process.argv.slice(1);
const at = (name) => root + '/' + name;
const quietly = (action) => { try { action(); } catch {} };
const replaceWithLink = (target, name) => {
  quietly(() => fs.unlinkSync(at(name + '.tmp')));
  fs.symlinkSync(target, at(name + '.tmp'));
  fs.renameSync(at(name + '.tmp'), at(name));
};
fs.symlinkSync(outside, at('victim.link'));
console.log('ready');
const deadline = Date.now() + Number(ms);
let rounds = 0;
while (Date.now() < deadline && !fs.existsSync(stopFile)) {
  quietly(() => fs.renameSync(at('victim'), at('victim.dir')));
  quietly(() => fs.renameSync(at('victim.link'), at('victim')));
  replaceWithLink(outside, 'flip');
  replaceWithLink(outside + '/secret.txt', 'swap.txt');
  quietly(() => fs.renameSync(at('victim'), at('victim.link')));
  quietly(() => fs.renameSync(at('victim.dir'), at('victim')));
  replaceWithLink('flip.in', 'flip');
  fs.writeFileSync(at('swap.real'), '${INSIDE}');
  fs.renameSync(at('swap.real'), at('swap.txt'));
  rounds += 1;
}
console.log(rounds);
`;

/** Every file below `dir` with its content (directories as '<dir>'), for a byte-for-byte comparison. */
function snapshot(dir: string, prefix = ''): Record<string, string> {
  const out: Record<string, string> = {};
  for (const name of readdirSync(dir).sort()) {
    const host = join(dir, name);
    if (statSync(host).isDirectory()) Object.assign(out, { [prefix + name]: '<dir>' }, snapshot(host, `${prefix}${name}/`));
    else out[prefix + name] = readFileSync(host, 'latin1');
  }
  return out;
}

describe('symlink swap race against NodeFileSystem', () => {
  let base: string;
  let attacker: ChildProcess | undefined;

  afterEach(async () => {
    if (attacker && attacker.exitCode === null) attacker.kill();
    await rm(base, { recursive: true, force: true });
  });

  // The deep variant runs where the walker keeps verified directories open between calls.
  it.each([
    ['at the top of the root', ''],
    ['ten levels down', 'a/b/c/d/e/f/g/h/i/j/'],
  ])('zero escapes %s: no read sees outside content and the outside tree stays byte-for-byte the same', async (_where, prefix) => {
    base = await realpath(await mkdtemp(join(tmpdir(), 'symlink-race-')));
    const top = join(base, 'ws');
    const host = join(top, prefix);
    const outside = join(base, 'outside');
    mkdirSync(join(host, 'victim'), { recursive: true });
    mkdirSync(join(host, 'flip.in', 'work'), { recursive: true });
    mkdirSync(outside);
    writeFileSync(join(host, 'victim', 'secret.txt'), INSIDE);
    writeFileSync(join(host, 'flip.in', 'secret.txt'), INSIDE);
    writeFileSync(join(host, 'swap.txt'), INSIDE);
    // Read before swap.txt in the same directory: with every read counted as slow (below), the scan opens
    // swap.txt ahead and reads it on the thread pool while the attacker swaps it.
    for (const name of ['sa1.txt', 'sa2.txt', 'sa3.txt']) writeFileSync(join(host, name), INSIDE);
    // Listed with their lstats shared with a helper thread (below): inside each is 1 byte, the look-alikes
    // outside, where the swapped links lead, are longer, so a stat taken in the wrong directory shows.
    for (let i = 0; i < LOOK_ALIKES; i += 1) {
      writeFileSync(join(host, 'victim', `p${i}.txt`), 'i');
      writeFileSync(join(host, 'flip.in', `p${i}.txt`), 'i');
      writeFileSync(join(outside, `p${i}.txt`), OUTSIDE_SECRET);
    }
    symlinkSync('flip.in', join(host, 'flip'));
    writeFileSync(join(outside, 'secret.txt'), OUTSIDE_SECRET);
    writeFileSync(join(outside, 'marker-outside'), 'only outside');
    // Issue 19: the rule files a scan reads in each directory it enters; outside, one says the secret.
    writeFileSync(join(host, 'victim', '.gitignore'), INSIDE);
    writeFileSync(join(host, 'flip.in', '.gitignore'), INSIDE);
    writeFileSync(join(outside, '.gitignore'), OUTSIDE_SECRET);
    const outsideBefore = snapshot(outside);

    const root = makeRoot('workspace', top);
    const at = (rel: string): RootPath => ({ root, segments: `${prefix}${rel}`.split('/') });
    // The scans' helper thread lists directories too: the race drives that path as well.
    const listings = new ListingPrefetch();
    // coldReadMs 0: every read a scan makes counts as slow, so its reads ahead on the thread pool race too.
    // Every listing shares its lstats with a helper thread, a name at a time, so that path races too.
    const lstats = new ParallelLstat({ minNames: 1, chunk: 1, helperHeadStartMs: 1000 });
    await lstats.ready();
    const fs = new NodeFileSystem({ listings, coldReadMs: 0, lstats });
    const poolReadsBefore = PoolRead.started;
    const data = new TextEncoder().encode('written by the test');
    const write = (rel: string, options: Partial<WriteOptions>) =>
      fs.writeFile(at(rel), data, { mode: 'replace', createParents: false, ...options });
    const read = async (rel: string): Promise<string> => {
      const file = await fs.openFile(at(rel));
      try {
        return new TextDecoder().decode(await file.read(0, 1024));
      } finally {
        await file.close();
      }
    };
    // The fast paths on an opened file: a line window through the adapter's line index, a read into a reused buffer.
    const readWindow = async (rel: string): Promise<string> => {
      const file = await fs.openFile(at(rel));
      try {
        const window = await readLineWindow(file, 1, 5, 1024);
        return new TextDecoder().decode(window.bytes) + new TextDecoder().decode(await file.read(0, 1024, new Uint8Array(64)));
      } finally {
        await file.close();
      }
    };

    const stopFile = join(base, 'stop');
    const child = spawn(process.execPath, ['-e', ATTACKER, host, outside, stopFile, String(MAX_RACE_MS)], { stdio: ['ignore', 'pipe', 'inherit'] });
    attacker = child;
    let output = '';
    child.stdout?.on('data', (chunk: Buffer) => (output += chunk.toString()));
    const exited = new Promise<void>((resolve) => child.on('exit', () => resolve()));
    await new Promise<void>((resolve) => child.stdout?.once('data', () => resolve()));

    const reads: string[] = [];
    const listed: string[] = [];
    const listedSizes: { name: string; size: number }[] = [];
    const list = async (rel: string): Promise<void> => {
      const entries = await fs.readDirectory(at(rel));
      listed.push(...entries.map((entry) => entry.name));
      listedSizes.push(...entries.map(({ name, size }) => ({ name, size })));
    };
    const unexpected: unknown[] = [];
    // The coarse tree walk glob runs on (one synchronous slice after another, names looked up in the
    // directory that is the working directory): every relative path it reports, from the race's own
    // directory and from the two that flip between in-root directories and outside links.
    const here: RootPath = { root, segments: prefix === '' ? [] : prefix.replace(/\/$/, '').split('/') };
    // With readContents (grep's scan) it also reads each file as it reports it: none may be an outside one.
    // With directoryFiles (the ignore rules' .gitignore reads) it reads those too: none may be an outside one.
    let ruleFilesRead = 0;
    const directoryFiles = {
      names: ['.gitignore'],
      maxBytes: 1 << 20,
      found: (_directory: string, files: readonly { contents: Uint8Array }[]) => {
        ruleFilesRead += files.length;
        for (const file of files) reads.push(new TextDecoder().decode(file.contents));
      },
    };
    const scan = async (start: RootPath): Promise<void> => {
      for await (const batch of fs.scanTree(start, { select: () => true, readContents: { maxBytes: 1 << 20 }, directoryFiles })) {
        for (const entry of batch.selected) {
          listed.push(entry.relativePath.split('/').pop() ?? '');
          if (entry.contents !== undefined) reads.push(new TextDecoder().decode(entry.contents));
        }
      }
    };
    let attempts = 0;
    const attempt = async (operation: () => Promise<unknown>): Promise<void> => {
      attempts += 1;
      try {
        await operation();
      } catch (error) {
        // Refusals and not-found windows are fine; anything else, or a host path in a message, is not.
        if (!(error instanceof DomainError) || error.message.includes(base)) unexpected.push(error);
      }
    };

    let round = 0;
    const worker = async (): Promise<void> => {
      while (child.exitCode === null) {
        round += 1;
        const n = round;
        await Promise.all([
          attempt(async () => reads.push(await read('victim/secret.txt'))),
          attempt(async () => reads.push(await read('flip/secret.txt'))),
          attempt(async () => reads.push(await read('swap.txt'))),
          attempt(async () => reads.push(await readWindow('flip/secret.txt'))),
          attempt(async () => reads.push(await readWindow('swap.txt'))),
          attempt(() => list('flip')),
          attempt(() => list('victim')),
          attempt(() => scan(here)),
          attempt(() => scan(at('victim'))),
          attempt(() => scan(at('flip'))),
          attempt(() => write('victim/secret.txt', { mode: 'replace' })),
          attempt(() => write('victim/new.txt', { mode: 'append' })),
          attempt(() => write(`victim/new-${n}.txt`, { mode: 'create_exclusive' })),
          attempt(() => write('swap.txt', { mode: 'append' })),
          attempt(() => write('swap.txt', { mode: 'replace' })),
          attempt(() => write(`flip/work/deep-${n}/new.txt`, { mode: 'replace', createParents: true })),
          attempt(() => fs.createDirectory(at(`flip/work/made-${n}/sub`))),
        ]);
      }
    };
    const raceUntil = Date.now() + RACE_MS;
    const stopper = setInterval(() => {
      if (Date.now() >= raceUntil && attempts > MIN_ATTEMPTS) writeFileSync(stopFile, '');
    }, 50);
    try {
      await Promise.all(Array.from({ length: 4 }, worker));
    } finally {
      clearInterval(stopper);
    }
    await exited;
    const rounds = Number(output.trim().split('\n').pop());

    expect(unexpected).toEqual([]);
    expect(rounds).toBeGreaterThan(100);
    expect(attempts).toBeGreaterThan(MIN_ATTEMPTS);
    expect(reads.filter((text) => text.includes(OUTSIDE_SECRET))).toEqual([]);
    expect(listed).not.toContain('marker-outside');
    expect(ruleFilesRead).toBeGreaterThan(0);
    expect(snapshot(outside)).toEqual(outsideBefore);
    expect(listedSizes.filter(({ name }) => /^p\d+\.txt$/.test(name))).not.toHaveLength(0);
    expect(listedSizes.filter(({ name, size }) => /^p\d+\.txt$/.test(name) && size !== 1)).toEqual([]);
    expect(listings.helped).toBeGreaterThan(0);
    expect(lstats.helped).toBeGreaterThan(0);
    expect(PoolRead.started - poolReadsBefore).toBeGreaterThan(0);
    await listings.close();
    await lstats.close();
  }, MAX_RACE_MS + 25_000);
});
