import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, truncateSync, unlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DiskChangeJournal } from '../../../../src/adapters/outbound/journal/disk-change-journal.js';
import { draft, ManualClock } from './change-journal.contract.js';

const RECORDS = 60;

/** Overwrites every image file in place with bytes of the same length: the directory's mtime stays, a reader of them finds no record. */
function garbleRecords(dir: string): void {
  for (const name of readdirSync(join(dir, 'records'))) {
    const file = join(dir, 'records', name);
    writeFileSync(file, Buffer.alloc(statSync(file).size, 'x'), { flag: 'r+' });
  }
}

function filesBytes(dir: string): number {
  let total = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true })) total += entry.isDirectory() ? filesBytes(join(dir, entry.name)) : statSync(join(dir, entry.name)).size;
  return total;
}

describe('DiskChangeJournal start-up from its index checkpoint (issue 31)', () => {
  let base: string;
  let dir: string;
  let ids: string[];
  const image = (fill: number) => ({ entries: [{ relativePath: '', kind: 'file' as const, mode: 0o644, content: new Uint8Array(2000).fill(fill) }] });

  beforeEach(async () => {
    base = mkdtempSync(join(tmpdir(), 'journal-checkpoint-'));
    dir = join(base, 'journal');
    const journal = new DiskChangeJournal(dir, new ManualClock());
    ids = [];
    for (let at = 0; at < RECORDS; at += 1) {
      const id = await journal.begin(draft({ path: `f${at}.txt` }), image(at));
      await journal.commit(id);
      ids.push(id);
    }
    await journal.claimUndo(ids[0], 'undo-0');
    await journal.finishUndo(ids[0]);
    await journal.dropImage(ids[1], 'evicted');
    await journal.close();
  });
  afterEach(() => rmSync(base, { recursive: true, force: true }));

  it('a clean close writes it; a start-up then reads no record file, yet lists, counts and undoes as before', async () => {
    expect(existsSync(join(dir, 'index'))).toBe(true);
    const bytes = filesBytes(dir);
    garbleRecords(dir);
    const again = new DiskChangeJournal(dir, new ManualClock());
    expect(await again.pending()).toEqual([]);
    expect(await again.usage()).toEqual({ bytes: (RECORDS - 1) * 2000, records: RECORDS });
    expect(await again.storedBytes()).toBe(bytes);
    // The records come from the checkpoint's body, not from their (garbled) files.
    const listed = await again.list({});
    expect(listed.map((record) => record.id)).toEqual([...ids].reverse());
    expect(listed.find((record) => record.id === ids[0])?.undoneBy).toBe('undo-0');
    expect(listed.find((record) => record.id === ids[1])?.undoable).toBe(false);
    // A new change gets a later id than every one the checkpoint holds.
    const next = await again.begin(draft(), image(1));
    expect(next > ids[RECORDS - 1]).toBe(true);
    await again.close();
  });

  it('start-up, recovery and the bounds read its head alone: the body is read when a call needs the records', async () => {
    garbleRecords(dir);
    const again = new DiskChangeJournal(dir, new ManualClock());
    // Torn after start-up: had anything read the body by now, these would be the garbled files' (none).
    truncateSync(join(dir, 'index'), readFileSync(join(dir, 'index'), 'utf8').indexOf('\n') + 1);
    expect(await again.pending()).toEqual([]);
    expect(await again.undosInFlight()).toEqual([]);
    expect(await again.usage()).toEqual({ bytes: (RECORDS - 1) * 2000, records: RECORDS });
    const id = await again.begin(draft({ path: 'new.txt' }), image(9));
    await again.commit(id);
    expect(await again.usage()).toEqual({ bytes: RECORDS * 2000, records: RECORDS + 1 });
    // Now a call needs them: the body is torn, so the directory is read (its garbled files hold no record).
    expect((await again.list({})).map((record) => record.id)).toEqual([id]);
  });

  it('retention reads the records only when the checkpoint says one of them is old enough to go', async () => {
    garbleRecords(dir);
    const again = new DiskChangeJournal(dir, new ManualClock());
    truncateSync(join(dir, 'index'), readFileSync(join(dir, 'index'), 'utf8').indexOf('\n') + 1);
    // The draft's changes are made at the clock's time: none is older than it.
    expect(await again.prune(new ManualClock().now())).toBe(0);
    expect(await again.usage()).toEqual({ bytes: (RECORDS - 1) * 2000, records: RECORDS });
    // A later bound covers them: the body is needed (torn here, so the garbled directory is read: nothing to prune).
    expect(await again.prune(new Date(new ManualClock().now().getTime() + 1))).toBe(0);
    expect(await again.usage()).toEqual({ bytes: 0, records: 0 });
  });

  it('a change made after it is in the next one, written at close', async () => {
    const again = new DiskChangeJournal(dir, new ManualClock());
    const id = await again.begin(draft({ path: 'new.txt' }), image(9));
    await again.commit(id);
    expect(await again.usage()).toEqual({ bytes: RECORDS * 2000, records: RECORDS + 1 });
    await again.close();
    garbleRecords(dir);
    const third = new DiskChangeJournal(dir, new ManualClock());
    expect((await third.list({ limit: 2 })).map((record) => record.id)).toEqual([id, ids[RECORDS - 1]]);
    expect(await third.usage()).toEqual({ bytes: RECORDS * 2000, records: RECORDS + 1 });
  });

  it('is not used once the records directory changed after it (another writer): the records are read', async () => {
    unlinkSync(join(dir, 'records', `${ids[5]}.img`));
    const again = new DiskChangeJournal(dir, new ManualClock());
    const listed = (await again.list({})).map((record) => record.id);
    expect(listed).toHaveLength(RECORDS - 1);
    expect(listed).not.toContain(ids[5]);
    expect(await again.usage()).toEqual({ bytes: (RECORDS - 2) * 2000, records: RECORDS - 1 });
  });

  it('a torn body: the records are read from the directory, and the totals are theirs', async () => {
    const text = readFileSync(join(dir, 'index'), 'utf8');
    truncateSync(join(dir, 'index'), text.indexOf('\n') + 40);
    const again = new DiskChangeJournal(dir, new ManualClock());
    expect((await again.list({})).map((record) => record.id)).toEqual([...ids].reverse());
    expect(await again.usage()).toEqual({ bytes: (RECORDS - 1) * 2000, records: RECORDS });
    expect(await again.storedBytes()).toBe(filesBytes(dir));
  });

  it('a head of another version or shape is not used: the records are read', async () => {
    const text = readFileSync(join(dir, 'index'), 'utf8');
    const head = JSON.parse(text.slice(0, text.indexOf('\n'))) as Record<string, unknown>;
    const { eager, ...older } = head;
    writeFileSync(join(dir, 'index'), `${JSON.stringify({ ...older, pending: eager })}${text.slice(text.indexOf('\n'))}`);
    const bytes = filesBytes(dir);
    const again = new DiskChangeJournal(dir, new ManualClock());
    expect((await again.list({})).map((record) => record.id)).toEqual([...ids].reverse());
    expect(await again.storedBytes()).toBe(bytes);
  });

  it('is written when the journal has been idle a second after a change, not only at close', async () => {
    const again = new DiskChangeJournal(dir, new ManualClock());
    const id = await again.begin(draft({ path: 'idle.txt' }), image(7));
    await again.commit(id);
    await new Promise((resolve) => setTimeout(resolve, 1600));
    // Killed now (never closed): the next start-up finds the change in the checkpoint.
    garbleRecords(dir);
    const third = new DiskChangeJournal(dir, new ManualClock());
    expect((await third.list({ limit: 1 })).map((record) => record.id)).toEqual([id]);
  });
});
