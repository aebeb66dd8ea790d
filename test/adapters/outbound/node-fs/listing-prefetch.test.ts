import { execFileSync } from 'node:child_process';
import { closeSync, constants, mkdirSync, openSync, readdirSync, symlinkSync, writeFileSync } from 'node:fs';
import { mkdtemp, realpath, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { NodeFileSystem } from '../../../../src/adapters/outbound/node-file-system.js';
import { ListingPrefetch, type ListedEntry } from '../../../../src/adapters/outbound/node-fs/listing-prefetch.js';
import type { RootPath } from '../../../../src/domain/roots.js';
import { makeRoot } from '../../../support/roots.js';

const DIRECTORY = constants.O_RDONLY | constants.O_DIRECTORY | constants.O_NOFOLLOW;
const byName = (entries: readonly ListedEntry[] | undefined) => [...(entries ?? [])].sort((a, b) => (a.name < b.name ? -1 : 1));

describe('ListingPrefetch (a helper thread lists the directories a scan opened ahead)', () => {
  let base: string;
  let prefetch: ListingPrefetch;
  const fds: number[] = [];
  const openDirectory = (path: string) => {
    const fd = openSync(path, DIRECTORY);
    fds.push(fd);
    return fd;
  };
  const closeDirectory = (fd: number) => {
    closeSync(fd);
    fds.splice(fds.indexOf(fd), 1);
  };
  /** Asks for the listing and lets the helper answer before it is taken. */
  const listedByHelper = async (fd: number) => {
    prefetch.request(fd);
    prefetch.flush();
    await prefetch.drained();
    return prefetch.take(fd);
  };

  beforeEach(async () => {
    base = await realpath(await mkdtemp(join(tmpdir(), 'listing-prefetch-')));
    prefetch = new ListingPrefetch();
    await prefetch.ready();
  });

  afterEach(async () => {
    for (const fd of fds.splice(0)) closeSync(fd);
    await prefetch.close();
    await rm(base, { recursive: true, force: true });
  });

  it('gives the names and kinds readdir gives, without following links', async () => {
    const dir = join(base, 'd');
    mkdirSync(join(dir, 'sub'), { recursive: true });
    writeFileSync(join(dir, 'file.txt'), 'x');
    symlinkSync('/etc', join(dir, 'link'));
    execFileSync('mkfifo', [join(dir, 'pipe')]);
    writeFileSync(join(dir, 'ünïcode name'), 'y');

    const listing = await listedByHelper(openDirectory(dir));

    expect(byName(listing)).toEqual([
      { name: 'file.txt', kind: 'file' },
      { name: 'link', kind: 'symlink' },
      { name: 'pipe', kind: 'other' },
      { name: 'sub', kind: 'directory' },
      { name: 'ünïcode name', kind: 'file' },
    ]);
    expect(prefetch.helped).toBe(1);
  });

  it('has nothing for an fd it was not asked about, nor twice for one it was', async () => {
    mkdirSync(join(base, 'd'));
    const fd = openDirectory(join(base, 'd'));
    expect(prefetch.take(fd)).toBeUndefined();
    expect(await listedByHelper(fd)).toEqual([]);
    expect(prefetch.take(fd)).toBeUndefined();
  });

  it('leaves a request not sent yet to the caller, and sends the others of its batch', async () => {
    for (const name of ['a', 'b', 'c']) mkdirSync(join(base, name));
    writeFileSync(join(base, 'b', 'in-b.txt'), '');
    const [a, b, c] = ['a', 'b', 'c'].map((name) => openDirectory(join(base, name)));
    for (const fd of [a, b, c]) prefetch.request(fd);

    expect(prefetch.take(a)).toBeUndefined();
    await prefetch.drained();
    expect(prefetch.take(b)).toEqual([{ name: 'in-b.txt', kind: 'file' }]);
    expect(prefetch.take(c)).toEqual([]);
    expect(prefetch.helped).toBe(2);
  });

  it('never gives the listing asked for a closed fd to the directory that reuses its number', async () => {
    mkdirSync(join(base, 'first'));
    mkdirSync(join(base, 'second'));
    writeFileSync(join(base, 'first', 'only-in-first.txt'), '');
    writeFileSync(join(base, 'second', 'only-in-second.txt'), '');
    const first = openDirectory(join(base, 'first'));
    prefetch.request(first);
    prefetch.flush();
    await prefetch.drained();
    // The scan gives the directory up before taking its listing (the helper has answered by now).
    prefetch.abandon(first);
    closeDirectory(first);
    const second = openDirectory(join(base, 'second'));
    expect(second).toBe(first);

    expect(prefetch.take(second)).toBeUndefined();
    expect(await listedByHelper(second)).toEqual([{ name: 'only-in-second.txt', kind: 'file' }]);
  });

  it('stops an idle helper, and the next request starts another', async () => {
    const quick = new ListingPrefetch(400);
    try {
      mkdirSync(join(base, 'd'));
      writeFileSync(join(base, 'd', 'f'), '');
      const fd = openDirectory(join(base, 'd'));
      await quick.ready();
      expect(quick.running).toBe(true);
      await sleep(800);
      expect(quick.running).toBe(false);

      quick.request(fd);
      quick.flush();
      expect(quick.running).toBe(true);
      await quick.ready();
      await quick.drained();
      expect(quick.take(fd)).toEqual([{ name: 'f', kind: 'file' }]);
    } finally {
      await quick.close();
    }
  });

  it('after close, nothing is listed by a helper and the caller lists every directory', async () => {
    mkdirSync(join(base, 'd'));
    const fd = openDirectory(join(base, 'd'));
    await prefetch.close();
    expect(await listedByHelper(fd)).toBeUndefined();
    expect(prefetch.running).toBe(false);
  });

  it('a scan stopped early abandons what it asked for, so no answer can outlive the fds it closed', async () => {
    // Each directory holds one 100 KiB file, and a batch with contents ends past 128 KiB: the first batch
    // comes back after two directories, with the others opened ahead and asked for.
    const bytes = Buffer.alloc(100 * 1024, 'x');
    for (let i = 0; i < 40; i += 1) {
      mkdirSync(join(base, 'tree', `d${String(i).padStart(2, '0')}`), { recursive: true });
      writeFileSync(join(base, 'tree', `d${String(i).padStart(2, '0')}`, 'f.txt'), bytes);
    }
    const files = new NodeFileSystem({ listings: prefetch });
    const start: RootPath = { root: makeRoot('workspace', join(base, 'tree')), segments: [] };
    let asked = 0;
    for await (const batch of files.scanTree(start, { select: () => true, readContents: { maxBytes: bytes.length } })) {
      asked = prefetch.outstandingRequests;
      if (batch.selected.length > 0) break;
    }
    expect(asked).toBeGreaterThan(30);
    expect(prefetch.outstandingRequests).toBe(0);
  });

  it('a tree scan reports the same with the helper as without it, and uses its listings', async () => {
    // 30 directories of 6 subdirectories each, every one with files and a link that is never entered.
    for (let i = 0; i < 30; i += 1) {
      for (let j = 0; j < 6; j += 1) {
        const dir = join(base, 'tree', `d${i}`, `s${j}`);
        mkdirSync(dir, { recursive: true });
        writeFileSync(join(dir, `f${j}.ts`), `${i}/${j}`);
        writeFileSync(join(dir, 'notes.md'), 'md');
        symlinkSync('..', join(dir, 'up'));
      }
    }
    const root = makeRoot('workspace', join(base, 'tree'));
    const start: RootPath = { root, segments: [] };
    const scan = async (files: NodeFileSystem) => {
      const reported: string[] = [];
      for (let round = 0; round < 3; round += 1) {
        reported.length = 0;
        for await (const batch of files.scanTree(start, { select: () => true, readContents: { maxBytes: 64 } })) {
          for (const entry of batch.selected) reported.push(`${entry.relativePath} ${entry.stat.kind} ${entry.contents ? new TextDecoder().decode(entry.contents) : '-'}`);
        }
      }
      return reported;
    };

    const withHelper = await scan(new NodeFileSystem({ listings: prefetch }));
    const without = await scan(new NodeFileSystem({ listings: null }));

    expect(withHelper).toEqual(without);
    expect(without).toHaveLength(30 + 30 * 6 * 4);
    expect(without.filter((line) => line.endsWith(' symlink -'))).toHaveLength(180);
    expect(prefetch.helped).toBeGreaterThan(0);
    // Every fd a scan opened is closed, and no request is left over.
    expect(readdirSync('/proc/self/fd').length).toBeLessThan(64);
  });
});
