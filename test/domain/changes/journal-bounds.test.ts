import { InMemoryChangeJournal } from '../../../src/adapters/outbound/journal/in-memory-change-journal.js';
import { JournalBounds } from '../../../src/domain/changes/journal-bounds.js';
import { draft, ManualClock } from '../../adapters/outbound/journal/change-journal.contract.js';

// Issue 27 §2: journal.max_bytes bounds everything a store keeps, not only its before-images.

/** A store whose records cost RECORD bytes each and whose log holds `log` bytes until compacted (as the disk store's). */
class CostedJournal extends InMemoryChangeJournal {
  static readonly RECORD = 10;
  log = 0;
  compactions = 0;

  async storedBytes(): Promise<number> {
    const { bytes, records } = await this.usage();
    return bytes + records * CostedJournal.RECORD + this.log;
  }

  async compact(): Promise<void> {
    this.compactions += 1;
    this.log = 0;
  }
}

const image = (size: number) => ({ entries: [{ relativePath: '', kind: 'file' as const, mode: 0o644, content: new Uint8Array(size) }] });

describe('JournalBounds: max_bytes bounds what the store keeps', () => {
  let clock: ManualClock;
  let journal: CostedJournal;
  const usages: number[] = [];
  let evicted = 0;
  const bounds = (maxBytes: number) =>
    new JournalBounds(journal, clock, { maxBytes, maxFileBytes: maxBytes, retentionMs: 3_600_000 }, {
      journalUsage: (bytes) => usages.push(bytes),
      journalEvicted: (count) => (evicted += count),
      undoOutcome: () => undefined,
    });
  beforeEach(() => {
    clock = new ManualClock();
    journal = new CostedJournal(clock);
    usages.length = 0;
    evicted = 0;
  });

  async function change(size: number | null): Promise<string> {
    const id = await journal.begin(draft(), size === null ? null : image(size));
    await journal.commit(id);
    clock.advance(1);
    return id;
  }

  it('compacts first: what the log held is freed without evicting anything', async () => {
    await change(40);
    await change(40);
    journal.log = 50;
    await bounds(120).enforce();
    expect(journal.compactions).toBe(1);
    expect(evicted).toBe(0);
    expect(usages).toEqual([100]);
  });

  it('counts records against max_bytes: the oldest images go, their records stay listed, not undoable', async () => {
    const [a, b, c] = [await change(40), await change(40), await change(40)];
    // 3 × 40 image bytes + 3 × 10 record bytes = 150 > 120, though the images alone (120) fit.
    await bounds(120).enforce();
    expect((await journal.list({})).map((record) => [record.id, record.undoable])).toEqual([
      [c, true],
      [b, true],
      [a, false],
    ]);
    expect(usages).toEqual([110]);
  });

  it('forgets the oldest records once the records hold more than a quarter of max_bytes; the newest images stay', async () => {
    const ids: string[] = [];
    for (let at = 0; at < 6; at += 1) ids.push(await change(null));
    const newest = await change(60);
    // 60 image bytes + 7 × 10 record bytes = 130 > 100, and the records (70) pass a quarter (25): the oldest go, not the image.
    await bounds(100).enforce();
    const kept = await journal.list({});
    expect(kept.map((record) => record.id)).toEqual([newest, ids[5], ids[4], ids[3]]);
    expect(kept[0].undoable).toBe(true);
    expect(evicted).toBe(3);
    expect(usages).toEqual([100]);
  });

  it('forgets the oldest records when no image is left to evict and the total is still over', async () => {
    for (let at = 0; at < 5; at += 1) await change(null);
    await bounds(40).enforce();
    expect(await journal.list({})).toHaveLength(4);
    expect(usages).toEqual([40]);
  });
});
