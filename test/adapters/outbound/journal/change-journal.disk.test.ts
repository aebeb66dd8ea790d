import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, symlinkSync, writeFileSync, chmodSync } from 'node:fs';
import { hostname, tmpdir } from 'node:os';
import { join } from 'node:path';
import { DiskChangeJournal } from '../../../../src/adapters/outbound/journal/disk-change-journal.js';
import { changeJournalContract, draft, ManualClock } from './change-journal.contract.js';

describe('change journal contract: DiskChangeJournal', () => {
  const dirs: string[] = [];
  afterAll(() => dirs.forEach((dir) => rmSync(dir, { recursive: true, force: true })));
  changeJournalContract((clock) => {
    const base = mkdtempSync(join(tmpdir(), 'journal-contract-'));
    dirs.push(base);
    const dir = join(base, 'journal');
    return { journal: new DiskChangeJournal(dir, clock), reopen: () => new DiskChangeJournal(dir, clock) };
  });
});

describe('DiskChangeJournal on disk', () => {
  let base: string;
  beforeEach(() => {
    base = mkdtempSync(join(tmpdir(), 'journal-disk-'));
  });
  afterEach(() => rmSync(base, { recursive: true, force: true }));

  it('makes its directories private (0700) and its files 0600', async () => {
    const dir = join(base, 'journal');
    const journal = new DiskChangeJournal(dir, new ManualClock());
    const id = await journal.begin(draft(), { entries: [{ relativePath: '', kind: 'file', mode: 0o644, content: Uint8Array.of(1) }] });
    const { statSync } = await import('node:fs');
    expect(statSync(dir).mode & 0o777).toBe(0o700);
    for (const sub of ['records', 'claims', 'log']) expect(statSync(join(dir, sub)).mode & 0o777).toBe(0o700);
    // begin: durable in the begin log; the image file is written after the change.
    expect(readdirSync(join(dir, 'records'))).toEqual([]);
    expect(readdirSync(join(dir, 'log'))).toHaveLength(1);
    for (const name of readdirSync(join(dir, 'log'))) expect(statSync(join(dir, 'log', name)).mode & 0o777).toBe(0o600);
    // commit: the image file, saying committed; a later version of the record (an undo's claim): its own file.
    await journal.commit(id);
    await journal.settled();
    expect(readdirSync(join(dir, 'records'))).toEqual([`${id}.img`]);
    expect(await journal.claimUndo(id, 'undo-session')).toBe(true);
    expect(readdirSync(join(dir, 'records'))).toEqual([`${id}.img`]);
    expect(readdirSync(join(dir, 'claims'))).toEqual([id]);
    expect(statSync(join(dir, 'claims', id)).mode & 0o777).toBe(0o600);
    await journal.finishUndo(id);
    expect(readdirSync(join(dir, 'claims'))).toEqual([id]);
    expect(readdirSync(join(dir, 'records')).sort()).toEqual([`${id}.img`, `${id}.json`]);
    for (const name of readdirSync(join(dir, 'records'))) expect(statSync(join(dir, 'records', name)).mode & 0o777).toBe(0o600);
    // A clean close syncs the image files and removes the log.
    await journal.close();
    expect(readdirSync(join(dir, 'log'))).toEqual([]);
  });

  it('a committed change, its marker and its dropped image are read back the same after a restart', async () => {
    const dir = join(base, 'journal');
    const journal = new DiskChangeJournal(dir, new ManualClock());
    const image = { entries: [{ relativePath: '', kind: 'file' as const, mode: 0o640, content: Uint8Array.of(1, 2, 3) }] };
    const kept = await journal.begin(draft(), image);
    await journal.commit(kept);
    const dropped = await journal.begin(draft(), image);
    await journal.commit(dropped);
    await journal.dropImage(dropped, 'evicted');
    const again = new DiskChangeJournal(dir, new ManualClock());
    expect((await again.list({})).map((record) => [record.id, record.undoable, record.reason ?? null])).toEqual([
      [dropped, false, 'evicted'],
      [kept, true, null],
    ]);
    expect(await again.pending()).toEqual([]);
    expect(await again.image(kept)).toEqual(image);
    expect(await again.image(dropped)).toBeNull();
    expect(await again.usage()).toEqual({ bytes: 3, records: 2 });
  });

  it('refuses a journal directory that is a link or writable by others', () => {
    const real = join(base, 'real');
    mkdirSync(real, { mode: 0o700 });
    symlinkSync(real, join(base, 'link'));
    expect(() => new DiskChangeJournal(join(base, 'link'), new ManualClock())).toThrow(/journal directory .*link is a symbolic link/);
    const open = join(base, 'open');
    mkdirSync(open);
    chmodSync(open, 0o777);
    expect(() => new DiskChangeJournal(open, new ManualClock())).toThrow('is writable by others (mode 777)');
  });

  it('at start-up removes an image or marker with no record and half-written temps, and keeps pending records', async () => {
    const dir = join(base, 'journal');
    const journal = new DiskChangeJournal(dir, new ManualClock());
    const pending = await journal.begin(draft(), null);
    // What a kill -9 inside a begin or a record write leaves behind, an image with no record (the
    // format before images carried their record), and a marker whose record was removed.
    writeFileSync(join(dir, 'records', '0000000000000orph.img'), '[]\n');
    writeFileSync(join(dir, 'records', '0000000000000orph.done'), '');
    writeFileSync(join(dir, 'records', `.0000000000000torn.img.tmp`), '{"manifest":[],"rec');
    writeFileSync(join(dir, 'records', `.${pending}.tmp`), '{"state":');
    const again = new DiskChangeJournal(dir, new ManualClock());
    expect(readdirSync(join(dir, 'records'))).toEqual([`${pending}.img`]);
    expect((await again.pending()).map((record) => record.id)).toEqual([pending]);
  });
});

describe('DiskChangeJournal: what it keeps on disk, counted (issue 27)', () => {
  let base: string;
  beforeEach(() => {
    base = mkdtempSync(join(tmpdir(), 'journal-size-'));
  });
  afterEach(() => rmSync(base, { recursive: true, force: true }));

  function filesBytes(dir: string): number {
    let total = 0;
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      total += entry.isDirectory() ? filesBytes(join(dir, entry.name)) : statSync(join(dir, entry.name)).size;
    }
    return total;
  }

  /** The begin log's segments: their names, and whether each holds more than its owner frame. */
  const segments = (dir: string) => readdirSync(join(dir, 'log')).map((name) => statSync(join(dir, 'log', name)).size);

  it('storedBytes is what its directory holds: image files, records, claims and the begin log; a segment past an eighth of max_bytes is checkpointed and the next is made ahead', async () => {
    const dir = join(base, 'journal');
    // Segments of 8 KiB at most.
    const journal = new DiskChangeJournal(dir, new ManualClock(), 64 * 1024);
    const image = (fill: number) => ({ entries: [{ relativePath: '', kind: 'file' as const, mode: 0o644, content: new Uint8Array(3000).fill(fill) }] });
    const ids: string[] = [];
    for (let at = 0; at < 4; at += 1) {
      const id = await journal.begin(draft({ path: `f${at}.txt` }), image(at));
      await journal.commit(id);
      ids.push(id);
    }
    await journal.commit(ids[0], null);
    expect(await journal.claimUndo(ids[1], 'undo-1')).toBe(true);
    await journal.dropImage(ids[2], 'evicted');
    // Counted before the image files written after the calls are in place: as they will be.
    const counted = await journal.storedBytes();
    await journal.settled();
    await journal.compact();
    // The third begin passed 8 KiB: that segment is gone, and the next one was made ahead (its owner frame only, uncounted).
    const log = segments(dir);
    expect(log.length).toBeLessThanOrEqual(2);
    const ahead = log.filter((size) => size < 200).reduce((sum, size) => sum + size, 0);
    expect(await journal.storedBytes()).toBe(filesBytes(dir) - ahead);
    expect(counted).toBeGreaterThanOrEqual(filesBytes(dir) - ahead);
    // A forgotten record takes its files with it.
    await journal.forget(ids[1]);
    await journal.forget(ids[2]);
    expect(await journal.storedBytes()).toBe(filesBytes(dir) - ahead);
    expect(readdirSync(join(dir, 'claims'))).toEqual([]);
    await journal.close();
    expect(readdirSync(join(dir, 'log'))).toEqual([]);
  });

  it('a reopened journal counts the records it reads', async () => {
    const dir = join(base, 'journal');
    const journal = new DiskChangeJournal(dir, new ManualClock(), 64 * 1024);
    const id = await journal.begin(draft(), { entries: [{ relativePath: '', kind: 'file' as const, mode: 0o644, content: new Uint8Array(500) }] });
    await journal.commit(id);
    await journal.claimUndo(id, 'undo-1');
    await journal.close();
    const again = new DiskChangeJournal(dir, new ManualClock(), 64 * 1024);
    await again.list({});
    expect(await again.storedBytes()).toBe(filesBytes(dir));
  });
});

describe('DiskChangeJournal: changes begun while another call reads the index', () => {
  let base: string;
  beforeEach(() => {
    base = mkdtempSync(join(tmpdir(), 'journal-race-'));
  });
  afterEach(() => rmSync(base, { recursive: true, force: true }));

  it('a change being begun is kept through every re-read of the directory, then committed and listed', async () => {
    const journal = new DiskChangeJournal(join(base, 'journal'), new ManualClock());
    const image = { entries: [{ relativePath: '', kind: 'file' as const, mode: 0o644, content: Uint8Array.of(1) }] };
    for (let i = 0; i < 20; i += 1) {
      let settled = false;
      const begun = journal.begin(draft({ path: `f${i}.txt` }), image).finally(() => {
        settled = true;
      });
      // list_changes from another session, again and again while the begin writes its file. Each
      // re-reads the directory, as a changed mtime makes it do: mtimes tick coarsely (a few ms), so
      // without forcing it the re-read would land inside the begin only now and then.
      // Only until the begin file is in place: a re-read after that would find it and hide the loss.
      const images = () => readdirSync(join(base, 'journal', 'records')).filter((name) => name.endsWith('.img')).length;
      while (!settled && images() === i) {
        (journal as unknown as { seen: number }).seen = -1;
        await journal.list({});
        await new Promise((resolve) => setImmediate(resolve));
      }
      const id = await begun;
      await journal.commit(id);
      expect((await journal.list({})).map((record) => record.id)).toContain(id);
    }
    expect(await journal.usage()).toEqual({ bytes: 20, records: 20 });
  });
});

describe('DiskChangeJournal: claims left by a server that died', () => {
  let base: string;
  beforeEach(() => {
    base = mkdtempSync(join(tmpdir(), 'journal-claims-'));
  });
  afterEach(() => rmSync(base, { recursive: true, force: true }));

  /** The pid of a process that has exited. */
  const deadPid = () => spawnSync(process.execPath, ['-e', '0']).pid!;

  it("a dead server's claim on this host is an undo in flight for the next server; live, remote and ownerless ones are not, and none is taken", async () => {
    const dir = join(base, 'journal');
    const journal = new DiskChangeJournal(dir, new ManualClock());
    const ids: string[] = [];
    for (const path of ['dead.txt', 'live.txt', 'remote.txt', 'old.txt']) {
      const id = await journal.begin(draft({ path }), null);
      await journal.commit(id);
      ids.push(id);
    }
    const [dead, live, remote, old] = ids;
    // What a kill -9 inside an undo leaves.
    const claim = (id: string, owner: object | string) => writeFileSync(join(dir, 'claims', id), typeof owner === 'string' ? owner : JSON.stringify({ undoId: 's9', instance: 'gone', ...owner }));
    claim(dead, { pid: deadPid(), host: hostname(), force: true });
    claim(live, { pid: process.ppid, host: hostname() });
    claim(remote, { pid: deadPid(), host: 'another-host' });
    claim(old, 's9');
    // A claim torn by a kill before it was linked into place: litter, never a claim.
    writeFileSync(join(dir, 'claims', `.${dead}.0a0b.tmp`), JSON.stringify({ undoId: 's8', instance: 'gone', pid: deadPid(), host: hostname() }));
    const again = new DiskChangeJournal(dir, new ManualClock());
    expect(await again.undosInFlight()).toEqual([{ id: dead, undoId: 's9', force: true }]);
    for (const id of ids) expect(await again.claimUndo(id, 's1')).toBe(false);
    expect(readdirSync(join(dir, 'claims')).sort()).toEqual([dead, live, remote, old].sort());
    expect(await again.adoptUndo(live)).toBe(false);
    expect(await again.adoptUndo(dead)).toBe(true);
    expect(JSON.parse(readFileSync(join(dir, 'claims', dead), 'utf8'))).toMatchObject({ undoId: 's9', force: true, pid: process.pid });
    expect(readdirSync(join(dir, 'claims')).sort()).toEqual([dead, live, remote, old].sort());
  });

  it("a finished undo's claim stays with its record, whoever made it: not in flight, and the change is never claimed again; a prune removes both", async () => {
    const dir = join(base, 'journal');
    const journal = new DiskChangeJournal(dir, new ManualClock());
    const id = await journal.begin(draft(), null);
    await journal.commit(id);
    expect(await journal.claimUndo(id, 's1')).toBe(true);
    await journal.finishUndo(id);
    const claimed = JSON.parse(readFileSync(join(dir, 'claims', id), 'utf8'));
    writeFileSync(join(dir, 'claims', id), JSON.stringify({ ...claimed, pid: deadPid(), instance: 'gone' }));
    const again = new DiskChangeJournal(dir, new ManualClock());
    expect(readdirSync(join(dir, 'claims'))).toEqual([id]);
    expect(await again.undosInFlight()).toEqual([]);
    expect(await again.claimUndo(id, 's2')).toBe(false);
    expect((await again.get(id))?.undoneBy).toBe('s1');
    expect(await again.prune(new Date(Date.parse('2027-01-01T00:00:00Z')))).toBe(1);
    expect(readdirSync(join(dir, 'claims'))).toEqual([]);
  });
});

describe('DiskChangeJournal shared by two servers', () => {
  let base: string;
  beforeEach(() => {
    base = mkdtempSync(join(tmpdir(), 'journal-shared-'));
  });
  afterEach(() => rmSync(base, { recursive: true, force: true }));

  it("lists the other's committed changes and leaves its changes in progress alone", async () => {
    const dir = join(base, 'journal');
    const one = new DiskChangeJournal(dir, new ManualClock());
    const two = new DiskChangeJournal(dir, new ManualClock());
    const image = { entries: [{ relativePath: '', kind: 'file' as const, mode: 0o640, content: Uint8Array.of(7, 8) }] };
    const done = await one.begin(draft(), image);
    await one.commit(done);
    const open = await one.begin(draft({ path: 'b.txt' }), image);
    // At once: the image file is written just after the call, so the other server reads the change from the begin log.
    expect((await two.list({})).map((record) => record.id)).toEqual([done]);
    expect(await two.image(done)).toEqual(image);
    expect(await one.pending()).toEqual([]);
    expect(await two.claimUndo(done, 'u1')).toBe(true);
    expect(await one.claimUndo(done, 'u2')).toBe(false);
    await two.finishUndo(done);
    expect((await one.get(done))?.undoneBy).toBe('u1');
    await one.commit(open);
    expect((await two.list({})).map((record) => record.id)).toEqual([open, done]);
    // And once the image files are written, from them.
    await one.settled();
    expect((await two.list({})).map((record) => record.id)).toEqual([open, done]);
    expect(await two.image(open)).toEqual(image);
  });
});
