import type { ChangeDraft, ChangeJournal } from '../../../../src/domain/ports/change-journal.port.js';
import type { Clock } from '../../../../src/domain/ports/clock.port.js';

/** A clock the test moves by hand. */
export class ManualClock implements Clock {
  constructor(private time = Date.parse('2026-01-01T00:00:00Z')) {}
  now(): Date {
    return new Date(this.time);
  }
  advance(ms: number): void {
    this.time += ms;
  }
}

export function draft(overrides: Partial<ChangeDraft> = {}): ChangeDraft {
  return {
    principal: 'alice',
    session: 's1',
    tool: 'write_file',
    op: 'modify',
    root: 'workspace',
    rootKey: 'k1',
    path: 'a.txt',
    before: { kind: 'file', size: 3, mode: 0o640, sha256: 'ab'.repeat(32) },
    after: { kind: 'file', size: 4, mode: 0o640, sha256: 'cd'.repeat(32) },
    undoable: true,
    ...overrides,
  };
}

const bytes = (text: string) => new TextEncoder().encode(text);

/**
 * One behaviour for every journal store (issue 20): the in-memory store the domain tests use and
 * the disk and Redis stores production uses run these same cases. `reopen` gives a store over the
 * same state as a restarted process would see it (the in-memory store: the same object).
 */
type Reopen = () => ChangeJournal | Promise<ChangeJournal>;

export function changeJournalContract(make: (clock: Clock) => { journal: ChangeJournal; reopen: Reopen } | Promise<{ journal: ChangeJournal; reopen: Reopen }>): void {
  let clock: ManualClock;
  let journal: ChangeJournal;
  let reopen: Reopen;
  beforeEach(async () => {
    clock = new ManualClock();
    ({ journal, reopen } = await make(clock));
  });

  it('lists a committed change with every field, and keeps its before-image byte for byte', async () => {
    const image = { entries: [{ relativePath: '', kind: 'file' as const, mode: 0o640, content: bytes('old') }] };
    const id = await journal.begin(draft(), image);
    expect(await journal.list({})).toEqual([]);
    await journal.commit(id);
    const [record] = await journal.list({});
    expect(record).toEqual({ ...draft(), id, time: '2026-01-01T00:00:00.000Z' });
    expect(await journal.get(id)).toEqual(record);
    expect(await journal.pending()).toEqual([]);
    const kept = await journal.image(id);
    expect(kept?.entries.map((entry) => ({ ...entry, content: Buffer.from(entry.content ?? []).toString() }))).toEqual([
      { relativePath: '', kind: 'file', mode: 0o640, content: 'old' },
    ]);
    expect(await journal.usage()).toEqual({ bytes: 3, records: 1 });
  });

  it('keeps a folder tree image in pre-order, empty files and folders included', async () => {
    const entries = [
      { relativePath: '', kind: 'directory' as const, mode: 0o750 },
      { relativePath: 'empty', kind: 'file' as const, mode: 0o600, content: bytes('') },
      { relativePath: 'sub', kind: 'directory' as const, mode: 0o700 },
      { relativePath: 'sub/x.bin', kind: 'file' as const, mode: 0o644, content: Uint8Array.from([0, 255, 10]) },
    ];
    const id = await journal.begin(draft({ op: 'rmdir' }), { entries });
    await journal.commit(id, null);
    const kept = await journal.image(id);
    expect(kept?.entries.map((entry) => ({ ...entry, content: entry.content && [...entry.content] }))).toEqual(
      entries.map((entry) => ({ ...entry, content: entry.content && [...entry.content] })),
    );
    expect((await journal.get(id))?.after).toBeNull();
  });

  it('aborts a change: no record, no image, nothing pending', async () => {
    const id = await journal.begin(draft(), { entries: [{ relativePath: '', kind: 'file', mode: 0o644, content: bytes('x') }] });
    await journal.abort(id);
    expect(await journal.list({})).toEqual([]);
    expect(await journal.pending()).toEqual([]);
    expect(await journal.image(id)).toBeNull();
    expect(await journal.usage()).toEqual({ bytes: 0, records: 0 });
  });

  it('orders ids by time and filters by principal, session, root, path (to_path too) and after an id, newest first', async () => {
    const first = await journal.begin(draft(), null);
    clock.advance(1);
    const second = await journal.begin(draft({ principal: 'bob', path: 'b.txt' }), null);
    const third = await journal.begin(draft({ session: 's2', op: 'move', toRoot: 'other', toPath: 'c.txt' }), null);
    for (const id of [first, second, third]) await journal.commit(id);
    expect(first < second && second < third).toBe(true);
    const ids = async (query: Parameters<ChangeJournal['list']>[0]) => (await journal.list(query)).map((record) => record.id);
    expect(await ids({})).toEqual([third, second, first]);
    expect(await ids({ principal: 'alice' })).toEqual([third, first]);
    expect(await ids({ session: 's2' })).toEqual([third]);
    expect(await ids({ root: 'other' })).toEqual([third]);
    expect(await ids({ path: 'c.txt' })).toEqual([third]);
    expect(await ids({ root: 'workspace', path: 'a.txt' })).toEqual([third, first]);
    expect(await ids({ afterId: first })).toEqual([third, second]);
    expect(await ids({ limit: 1 })).toEqual([third]);
    // Paging back: before an id (not itself), with a limit; and between two ids.
    expect(await ids({ beforeId: third, limit: 1 })).toEqual([second]);
    expect(await ids({ beforeId: second })).toEqual([first]);
    expect(await ids({ beforeId: first })).toEqual([]);
    expect(await ids({ afterId: first, beforeId: third })).toEqual([second]);
  });

  it("filters by this deployment's roots (name and key) before the limit counts", async () => {
    const ours = await journal.begin(draft(), null);
    const moved = await journal.begin(draft({ op: 'move', toRoot: 'other', toRootKey: 'k2', toPath: 'b.txt' }), null);
    const theirs = await journal.begin(draft({ rootKey: 'elsewhere' }), null);
    const movedToTheirs = await journal.begin(draft({ op: 'move', toRoot: 'other', toRootKey: 'elsewhere', toPath: 'b.txt' }), null);
    for (const id of [ours, moved, theirs, movedToTheirs]) await journal.commit(id);
    const roots = new Map([
      ['workspace', 'k1'],
      ['other', 'k2'],
    ]);
    expect((await journal.list({ roots })).map((record) => record.id)).toEqual([moved, ours]);
    expect((await journal.list({ roots, limit: 1 })).map((record) => record.id)).toEqual([moved]);
    expect((await journal.list({ roots: new Map([['workspace', 'k1']]) })).map((record) => record.id)).toEqual([ours]);
  });

  it('lets one undo claim a change, never two, until the claim is released; the record says undone only once it is finished', async () => {
    const id = await journal.begin(draft(), null);
    await journal.commit(id);
    const claims = await Promise.all([journal.claimUndo(id, 'u1'), journal.claimUndo(id, 'u2')]);
    expect(claims.filter(Boolean)).toHaveLength(1);
    // In flight: not undone yet, and no other undo may claim it.
    expect((await journal.get(id))?.undoneBy).toBeUndefined();
    expect(await journal.claimUndo(id, 'u5')).toBe(false);
    await journal.releaseUndo(id);
    expect((await journal.get(id))?.undoneBy).toBeUndefined();
    expect(await journal.claimUndo(id, 'u3')).toBe(true);
    await journal.finishUndo(id);
    expect((await journal.get(id))?.undoneBy).toBe('u3');
    expect(await journal.claimUndo(id, 'u6')).toBe(false);
    expect(await journal.claimUndo('0000000000000zzzz', 'u4')).toBe(false);
  });

  it('hands an undo a killed server left in flight to the next server, plan and all, once', async () => {
    const [one, two, three] = [await journal.begin(draft(), null), await journal.begin(draft({ path: 'b.txt' }), null), await journal.begin(draft({ path: 'c.txt' }), null)];
    for (const id of [one, two, three]) await journal.commit(id);
    expect(await journal.claimUndo(one, 'u1', true)).toBe(true);
    expect(await journal.claimUndo(two, 'u2')).toBe(true);
    expect(await journal.claimUndo(three, 'u3')).toBe(true);
    await journal.finishUndo(three);
    // This server's own claims are not in flight for it: it is alive.
    expect(await journal.undosInFlight()).toEqual([]);
    const again = await reopen();
    const inFlight = (await again.undosInFlight()).sort((a, b) => (a.id < b.id ? -1 : 1));
    expect(inFlight).toEqual([
      { id: one, undoId: 'u1', force: true },
      { id: two, undoId: 'u2', force: false },
    ]);
    expect((await again.get(one))?.undoneBy).toBeUndefined();
    expect(await again.adoptUndo(one)).toBe(true);
    expect(await again.adoptUndo(two)).toBe(true);
    // Adopted: this server's now, so no longer in flight for it, and still claimed.
    expect(await again.undosInFlight()).toEqual([]);
    expect(await again.claimUndo(one, 'u4')).toBe(false);
    await again.finishUndo(one);
    await again.releaseUndo(two);
    expect((await again.get(one))?.undoneBy).toBe('u1');
    expect((await again.get(two))?.undoneBy).toBeUndefined();
    expect((await again.get(three))?.undoneBy).toBe('u3');
    expect(await again.claimUndo(two, 'u5')).toBe(true);
  });

  it('drops an image (eviction): the record stays, not undoable, with the reason', async () => {
    const a = await journal.begin(draft(), { entries: [{ relativePath: '', kind: 'file', mode: 0o644, content: bytes('aaaa') }] });
    clock.advance(1);
    const b = await journal.begin(draft(), { entries: [{ relativePath: '', kind: 'file', mode: 0o644, content: bytes('bb') }] });
    await journal.commit(a);
    await journal.commit(b);
    expect(await journal.oldestWithImage(5)).toEqual([a, b]);
    await journal.dropImage(a, 'evicted');
    expect(await journal.image(a)).toBeNull();
    expect(await journal.get(a)).toMatchObject({ undoable: false, reason: 'evicted' });
    expect(await journal.usage()).toEqual({ bytes: 2, records: 2 });
    expect(await journal.oldestWithImage(5)).toEqual([b]);
  });

  it('lists the oldest committed records, and forgets one with its image (the bounds, past max_bytes)', async () => {
    const a = await journal.begin(draft(), { entries: [{ relativePath: '', kind: 'file', mode: 0o644, content: bytes('aaaa') }] });
    await journal.commit(a);
    clock.advance(1);
    const b = await journal.begin(draft(), { entries: [{ relativePath: '', kind: 'file', mode: 0o644, content: bytes('bb') }] });
    await journal.commit(b);
    clock.advance(1);
    const open = await journal.begin(draft(), null);
    expect(await journal.oldest(1)).toEqual([a]);
    expect(await journal.oldest(5)).toEqual([a, b]);
    await journal.forget(a);
    await journal.forget(open);
    expect(await journal.get(a)).toBeNull();
    expect(await journal.image(a)).toBeNull();
    expect(await journal.oldest(5)).toEqual([b]);
    // A pending record is no bound's to forget: it is still counted.
    expect(await journal.usage()).toEqual({ bytes: 2, records: 2 });
  });

  it('prunes changes older than the retention', async () => {
    const old = await journal.begin(draft(), { entries: [{ relativePath: '', kind: 'file', mode: 0o644, content: bytes('x') }] });
    await journal.commit(old);
    clock.advance(3_600_000);
    const recent = await journal.begin(draft(), null);
    await journal.commit(recent);
    expect(await journal.prune(new Date(clock.now().getTime() - 60_000))).toBe(1);
    expect((await journal.list({})).map((record) => record.id)).toEqual([recent]);
    expect(await journal.image(old)).toBeNull();
  });

  it('keeps committed and pending records, images and undo claims across a restart', async () => {
    const done = await journal.begin(draft(), { entries: [{ relativePath: '', kind: 'file', mode: 0o600, content: bytes('keep') }] });
    await journal.commit(done);
    await journal.claimUndo(done, 'u1');
    await journal.finishUndo(done);
    const open = await journal.begin(draft({ path: 'b.txt' }), null);
    const again = await reopen();
    expect((await again.list({})).map((record) => [record.id, record.undoneBy])).toEqual([[done, 'u1']]);
    expect((await again.pending()).map((record) => record.id)).toEqual([open]);
    expect(Buffer.from((await again.image(done))?.entries[0].content ?? []).toString()).toBe('keep');
    const later = await again.begin(draft(), null);
    expect(later > open).toBe(true);
  });

  it('copies bytes in and out: a caller changing its buffer does not change the image', async () => {
    const content = bytes('abc');
    const id = await journal.begin(draft(), { entries: [{ relativePath: '', kind: 'file', mode: 0o644, content }] });
    content[0] = 0x7a;
    await journal.commit(id);
    const first = await journal.image(id);
    first?.entries[0].content?.fill(0);
    expect(Buffer.from((await journal.image(id))?.entries[0].content ?? []).toString()).toBe('abc');
  });
}
