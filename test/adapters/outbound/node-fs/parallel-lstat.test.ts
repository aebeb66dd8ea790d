import { execFileSync } from 'node:child_process';
import { closeSync, constants, lstatSync, mkdirSync, openSync, readdirSync, symlinkSync, writeFileSync } from 'node:fs';
import { mkdtemp, realpath, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ParallelLstat, type LstatFields } from '../../../../src/adapters/outbound/node-fs/parallel-lstat.js';
import { WorkingDirectory } from '../../../../src/adapters/outbound/node-fs/working-directory.js';

const DIRECTORY = constants.O_RDONLY | constants.O_DIRECTORY | constants.O_NOFOLLOW;
const NAMES = 600;

/** The fields a listing uses, from node:fs Stats or from the helper's numbers alike. */
const fieldsOf = (stats: LstatFields | null) =>
  stats && { mode: stats.mode, size: stats.size, mtimeMs: stats.mtimeMs, birthtimeMs: stats.birthtimeMs, uid: stats.uid, gid: stats.gid };

/** The caller's own lstat, as NodeFileSystem's: null for a name that is gone, anything else thrown. */
const lstatHere = (name: string): LstatFields | null => lstatSync(name, { throwIfNoEntry: false }) ?? null;

describe('ParallelLstat (a helper thread shares the lstats of a large listing)', () => {
  let base: string;
  let dir: string;
  let lstats: ParallelLstat;

  beforeAll(async () => {
    base = await realpath(await mkdtemp(join(tmpdir(), 'parallel-lstat-')));
    dir = join(base, 'big');
    mkdirSync(dir);
    // Every kind, sizes that differ by entry, and a second directory beside it with the same names but other sizes.
    for (let i = 0; i < NAMES; i += 1) {
      const name = `entry-${String(i).padStart(4, '0')}`;
      if (i % 10 === 1) mkdirSync(join(dir, name));
      else if (i % 10 === 2) symlinkSync(`target-${i}`, join(dir, name));
      else writeFileSync(join(dir, name), 'x'.repeat(i));
    }
    execFileSync('mkfifo', [join(dir, 'a-fifo')]);
    mkdirSync(join(base, 'other'));
    for (const name of readdirSync(dir)) writeFileSync(join(base, 'other', name), 'other');
  });

  afterAll(async () => {
    await rm(base, { recursive: true, force: true });
  });

  beforeEach(() => {
    lstats = new ParallelLstat({ minNames: 1, helperHeadStartMs: 1000 });
  });

  afterEach(async () => {
    await lstats.close();
  });

  /** statAll inside the directory, as NodeFileSystem calls it: the directory open and the working directory. */
  const statAllIn = (path: string, names: readonly string[], statter = lstats) => {
    const fd = openSync(path, DIRECTORY);
    try {
      return WorkingDirectory.within(fd, () => statter.statAll(names, lstatHere));
    } finally {
      closeSync(fd);
    }
  };
  const expectedFor = (names: readonly string[]) => names.map((name) => fieldsOf(lstatSync(join(dir, name), { throwIfNoEntry: false }) ?? null));

  it('gives each name the lstat of that entry in this directory, in order, with the helper doing part of them', async () => {
    await lstats.ready();
    const names = readdirSync(dir);
    // The helper has a head start (helperHeadStartMs): it takes the first chunk, then both take turns.
    const results = statAllIn(dir, names);
    expect(results.map(fieldsOf)).toEqual(expectedFor(names));
    expect(lstats.helped).toBeGreaterThan(0);
  });

  it('gives null for names that are gone, wherever they fall among the chunks', async () => {
    await lstats.ready();
    const names = readdirSync(dir).flatMap((name, i) => (i % 7 === 0 ? [name, `missing-${i}`] : [name]));
    for (let round = 0; round < 5; round += 1) {
      const results = statAllIn(dir, names);
      expect(results.map(fieldsOf)).toEqual(expectedFor(names));
      expect(results.filter((stats) => stats === null)).toHaveLength(names.filter((name) => name.startsWith('missing-')).length);
    }
  });

  it("throws what the caller's own lstat throws for a name it cannot look up, whichever thread took it", async () => {
    await lstats.ready();
    // ENAMETOOLONG, last: both threads race for the last chunk, and a name the helper fails on is looked up again by the caller.
    const names = [...readdirSync(dir), ...readdirSync(dir), 'n'.repeat(300)];
    for (let round = 0; round < 30; round += 1) {
      expect(() => statAllIn(dir, names)).toThrow(expect.objectContaining({ code: 'ENAMETOOLONG' }) as Error);
    }
  });

  it('with no time to wait for the helper, the caller stats what the helper has not delivered, and the answer is the same', async () => {
    const hasty = new ParallelLstat({ minNames: 1, deadlineMs: 0 });
    try {
      await hasty.ready();
      const names = readdirSync(dir);
      for (let round = 0; round < 10; round += 1) expect(statAllIn(dir, names, hasty).map(fieldsOf)).toEqual(expectedFor(names));
    } finally {
      await hasty.close();
    }
  });

  it('answers about the directory it is called in: the same names in another directory give that one\'s entries', async () => {
    await lstats.ready();
    const names = readdirSync(dir);
    statAllIn(dir, names);
    const other = statAllIn(join(base, 'other'), names);
    expect(other.every((stats) => stats !== null && stats.size === 'other'.length)).toBe(true);
  });

  it('starts no helper for a small listing, and none at all once closed', async () => {
    const small = new ParallelLstat({ minNames: NAMES * 2 });
    try {
      const names = readdirSync(dir);
      expect(statAllIn(dir, names, small).map(fieldsOf)).toEqual(expectedFor(names));
      expect(small.running).toBe(false);
    } finally {
      await small.close();
    }
    await lstats.close();
    const names = readdirSync(dir);
    expect(statAllIn(dir, names).map(fieldsOf)).toEqual(expectedFor(names));
    expect(lstats.running).toBe(false);
    expect(lstats.helped).toBe(0);
  });
});
