import { THE_START } from '../../../src/domain/changes/change-id.js';
import { journalWorld } from './journal-world.js';

const W = 'workspace';

describe('UndoChanges: restores what each change replaced, newest first', () => {
  it('undoes a create, a modify and an append byte for byte, modes included', async () => {
    const world = journalWorld();
    world.tree.seedFile('/ws/a.txt', 'original\n', { permissions: 0o640 });
    await world.writeFile.execute({ root: W, path: 'a.txt', content: 'rewritten\n' });
    await world.writeFile.execute({ root: W, path: 'a.txt', content: 'more\n', mode: 'append' });
    await world.writeFile.execute({ root: W, path: 'new.txt', content: 'new' });
    const ids = (await world.journal.list({})).map((change) => change.id);
    const { results } = await world.undoChanges.execute({ ids }, 's1');
    expect(results.map((result) => [result.path, result.outcome])).toEqual([
      ['new.txt', 'restored'],
      ['a.txt', 'restored'],
      ['a.txt', 'restored'],
    ]);
    expect(world.tree.readText('/ws/a.txt')).toBe('original\n');
    expect(world.tree.permissionsOf('/ws/a.txt')).toBe(0o640);
    expect(world.tree.exists('/ws/new.txt')).toBe(false);
    expect(world.outcomes).toEqual(['restored', 'restored', 'restored']);
  });

  it('recreates a removed file with its mode, and a removed folder with its whole tree', async () => {
    const world = journalWorld();
    world.tree.seedFile('/ws/gone.bin', Uint8Array.of(0, 1, 255), { permissions: 0o600 });
    world.tree.seedFile('/ws/tree/x.txt', 'x', { permissions: 0o755 });
    world.tree.seedFile('/ws/tree/sub/y.txt', 'y');
    world.tree.seedDirectory('/ws/tree/empty');
    await world.removeFile.execute({ root: W, path: 'gone.bin' });
    await world.removeFolder.execute({ root: W, path: 'tree' });
    const since = THE_START;
    const { results } = await world.undoChanges.execute({ since_id: since }, 's1');
    expect(results.map((result) => result.outcome)).toEqual(['restored', 'restored']);
    expect([...world.tree.readBytes('/ws/gone.bin')!]).toEqual([0, 1, 255]);
    expect(world.tree.permissionsOf('/ws/gone.bin')).toBe(0o600);
    expect(world.tree.list('/ws/tree')).toEqual(['empty', 'sub', 'x.txt']);
    expect(world.tree.readText('/ws/tree/sub/y.txt')).toBe('y');
    expect(world.tree.permissionsOf('/ws/tree/x.txt')).toBe(0o755);
  });

  it('moves a moved file back, puts back the file a move or copy replaced, and removes a copy and a made folder', async () => {
    const world = journalWorld();
    world.tree.seedFile('/ws/src.txt', 'src');
    world.tree.seedFile('/ws/dest.txt', 'was here');
    world.tree.seedFile('/ws/other.txt', 'other');
    await world.move.execute({ source_root: W, source_path: 'src.txt', dest_root: W, dest_path: 'dest.txt' });
    await world.copy.execute({ source_root: W, source_path: 'other.txt', dest_root: W, dest_path: 'copy.txt' });
    await world.createFolder.execute({ root: W, path: 'made/deeper' });
    const { results } = await world.undoChanges.execute({ since_id: THE_START }, 's1');
    expect(results.map((result) => [result.op, result.outcome])).toEqual([
      ['mkdir', 'restored'],
      ['copy', 'restored'],
      ['move', 'restored'],
    ]);
    expect(world.tree.readText('/ws/src.txt')).toBe('src');
    expect(world.tree.readText('/ws/dest.txt')).toBe('was here');
    expect(world.tree.list('/ws')).toEqual(['dest.txt', 'other.txt', 'src.txt']);
  });

  it('refuses a change whose file changed since as a conflict naming what differs, and restores it with force', async () => {
    const world = journalWorld();
    world.tree.seedFile('/ws/a.txt', 'v1');
    await world.writeFile.execute({ root: W, path: 'a.txt', content: 'v2' });
    world.tree.seedFile('/ws/a.txt', 'v3 by someone else');
    const [change] = await world.journal.list({});
    const refused = await world.undoChanges.execute({ ids: [change.id] }, 's1');
    expect(refused.results).toEqual([{ id: change.id, op: 'modify', root: W, path: 'a.txt', outcome: 'conflict', reason: 'a.txt: its size is 18 bytes, not 2' }]);
    expect(world.tree.readText('/ws/a.txt')).toBe('v3 by someone else');
    const forced = await world.undoChanges.execute({ ids: [change.id], force: true }, 's1');
    expect(forced.results[0].outcome).toBe('restored');
    expect(world.tree.readText('/ws/a.txt')).toBe('v1');
  });

  it('dry run says would_restore with the diff and writes nothing', async () => {
    const world = journalWorld();
    world.tree.seedFile('/ws/a.txt', 'line one\nline two\n');
    await world.writeFile.execute({ root: W, path: 'a.txt', content: 'line one\nline 2\n' });
    const [change] = await world.journal.list({});
    const { results } = await world.undoChanges.execute({ ids: [change.id], dry_run: true }, 's1');
    expect(results[0].outcome).toBe('would_restore');
    expect(results[0].diff).toContain('-line 2\n+line two');
    expect(world.tree.readText('/ws/a.txt')).toBe('line one\nline 2\n');
    expect(await world.journal.list({})).toHaveLength(1);
  });

  it('journals each undo, so an undo can be undone; a second undo of one change is refused', async () => {
    const world = journalWorld();
    world.tree.seedFile('/ws/a.txt', 'v1');
    await world.writeFile.execute({ root: W, path: 'a.txt', content: 'v2' });
    const [change] = await world.journal.list({});
    world.as('local', 's1', 'undo_changes');
    const [first, second] = await Promise.all([
      world.undoChanges.execute({ ids: [change.id] }, 's1'),
      world.undoChanges.execute({ ids: [change.id] }, 's2'),
    ]);
    expect([first.results[0].outcome, second.results[0].outcome].sort()).toEqual(['conflict', 'restored']);
    expect(world.tree.readText('/ws/a.txt')).toBe('v1');
    const [undo] = await world.journal.list({});
    expect(undo).toMatchObject({ tool: 'undo_changes', op: 'modify', undoable: true });
    expect((await world.undoChanges.execute({ ids: [undo.id] }, 's1')).results[0].outcome).toBe('restored');
    expect(world.tree.readText('/ws/a.txt')).toBe('v2');
    expect((await world.undoChanges.execute({ ids: [change.id] }, 's1')).results[0]).toMatchObject({ outcome: 'conflict', reason: 'already undone (by session s1)' });
  });

  it('says not_undoable (why) for an evicted image, and denied for a root that does not allow undo_changes', async () => {
    const world = journalWorld({ maxFileBytes: 4, maxBytes: 4 });
    world.tree.seedFile('/ws/a.txt', 'aaaa');
    world.tree.seedFile('/ws/b.txt', 'bbbb');
    await world.writeFile.execute({ root: W, path: 'a.txt', content: 'x' });
    await world.writeFile.execute({ root: W, path: 'b.txt', content: 'y' });
    await world.writeFile.execute({ root: 'noundo', path: 'c.txt', content: 'z' });
    const { results } = await world.undoChanges.execute({ since_id: THE_START }, 's1');
    expect(results.map((result) => [result.path, result.outcome, result.reason])).toEqual([
      ['c.txt', 'denied', 'tool undo_changes not allowed on root noundo'],
      ['b.txt', 'restored', undefined],
      ['a.txt', 'not_undoable', expect.stringContaining('evicted')],
    ]);
    await expect(world.undoChanges.execute({ root: 'noundo', path: 'c.txt' }, 's1')).rejects.toThrow('tool undo_changes not allowed on root noundo');
  });

  it('says not_undoable (why) for an undoable change whose before-image this server cannot read, changes nothing and keeps no claim', async () => {
    const world = journalWorld();
    world.tree.seedFile('/ws/a.txt', 'kept elsewhere');
    world.tree.seedFile('/ws/gone.txt', 'removed');
    await world.writeFile.execute({ root: W, path: 'a.txt', content: 'new' });
    await world.removeFile.execute({ root: W, path: 'gone.txt' });
    // What a replica sees whose journal.dir is not the shared one: the records, but no image file.
    const records = await world.journal.list({});
    world.journal.image = async () => null;
    const { results } = await world.undoChanges.execute({ ids: records.map((record) => record.id) }, 's1');
    expect(results.map((result) => [result.path, result.outcome, result.reason])).toEqual([
      ['gone.txt', 'not_undoable', "its before-image is not in the journal (evicted, or not on this replica's journal directory)"],
      ['a.txt', 'not_undoable', "its before-image is not in the journal (evicted, or not on this replica's journal directory)"],
    ]);
    expect(world.tree.readText('/ws/a.txt')).toBe('new');
    expect(world.tree.exists('/ws/gone.txt')).toBe(false);
    expect((await world.journal.list({})).map((record) => [record.undoable, record.undoneBy])).toEqual([
      [true, undefined],
      [true, undefined],
    ]);
  });

  it('keeps principals apart: another principal neither sees nor undoes my changes', async () => {
    const world = journalWorld();
    world.as('alice', 'sa');
    await world.writeFile.execute({ root: W, path: 'alice.txt', content: 'mine' });
    const [mine] = await world.journal.list({});
    world.as('bob', 'sb');
    await world.writeFile.execute({ root: W, path: 'bob.txt', content: 'his' });
    expect((await world.listChanges.execute({}, 'sb')).changes.map((change) => change.path)).toEqual(['bob.txt']);
    expect((await world.undoChanges.execute({ ids: [mine.id] }, 'sb')).results).toEqual([
      { id: mine.id, outcome: 'not_undoable', reason: "no such change of yours (wrong id, another principal's, or aged out of the journal)" },
    ]);
    expect(world.tree.readText('/ws/alice.txt')).toBe('mine');
    world.as({ name: 'reader', readOnly: true }, 'sr');
    expect((await world.listChanges.execute({}, 'sr')).changes).toEqual([]);
    await expect(world.undoChanges.execute({ root: W, path: 'alice.txt' }, 'sr')).rejects.toThrow('tool undo_changes not allowed on root workspace');
  });

  it("never shows or undoes a change of another deployment's root of the same name (a shared journal directory)", async () => {
    const world = journalWorld();
    await world.writeFile.execute({ root: W, path: 'a.txt', content: 'mine' });
    const [mine] = await world.journal.list({});
    const foreign = await world.journal.begin({ ...mine, rootKey: 'another-dir' }, null);
    await world.journal.commit(foreign);
    expect((await world.listChanges.execute({}, 's1')).changes.map((change) => change.id)).toEqual([mine.id]);
    expect((await world.undoChanges.execute({ ids: [foreign] }, 's1')).results[0].outcome).toBe('not_undoable');
    expect((await world.undoChanges.execute({ since_id: THE_START, dry_run: true }, 's1')).results.map((result) => result.id)).toEqual([mine.id]);
  });

  it('undoes at most 500 changes a call: a since_id or path selecting more is refused whole, and nothing is undone', async () => {
    const world = journalWorld();
    world.tree.seedFile('/ws/a.txt', 'seed\n');
    for (let i = 1; i <= 501; i += 1) await world.writeFile.execute({ root: W, path: 'a.txt', content: `v${i}\n` });
    const all = await world.journal.list({});
    expect(all).toHaveLength(501);
    await expect(world.undoChanges.execute({ since_id: THE_START, force: true }, 's1')).rejects.toThrow(
      'undo_changes: since_id selects more than 500 of your changes, and one call undoes at most 500; nothing was undone',
    );
    await expect(world.undoChanges.execute({ root: W, path: 'a.txt' }, 's1')).rejects.toThrow('path a.txt in root workspace selects more than 500');
    expect(world.tree.readText('/ws/a.txt')).toBe('v501\n');
    expect((await world.journal.list({})).filter((change) => change.undoneBy !== undefined)).toEqual([]);
    // Exactly 500 (after the oldest): every one is undone, newest first, back to the first write's content.
    const { results } = await world.undoChanges.execute({ since_id: all[500].id }, 's1');
    expect(results).toHaveLength(500);
    expect(results.every((result) => result.outcome === 'restored')).toBe(true);
    expect(world.tree.readText('/ws/a.txt')).toBe('v1\n');
    // The oldest, past list_changes' 500 newest (now the undos' own records), is found by paging back, and undone by id.
    const everything = (await world.journal.list({})).map((change) => change.id);
    expect(everything).toHaveLength(1001);
    const page = async (before_id?: string) => (await world.listChanges.execute({ limit: 500, before_id }, 's1')).changes.map((change) => change.id);
    const pages = [await page()];
    pages.push(await page(pages[0][499]));
    pages.push(await page(pages[1][499]));
    expect(pages).toEqual([everything.slice(0, 500), everything.slice(500, 1000), [all[500].id]]);
    expect((await world.undoChanges.execute({ ids: pages[2] }, 's1')).results[0].outcome).toBe('restored');
    expect(world.tree.readText('/ws/a.txt')).toBe('seed\n');
  });

  it('asks for exactly one selector', async () => {
    const world = journalWorld();
    await expect(world.undoChanges.execute({}, 's1')).rejects.toThrow('give exactly one of ids, path (with root) or since_id');
    await expect(world.undoChanges.execute({ ids: [], since_id: THE_START }, 's1')).rejects.toThrow('exactly one');
  });
});

describe('ListChanges', () => {
  it('lists newest first with a limit, filters by path and session, and diffs text changes', async () => {
    const world = journalWorld();
    world.as('local', 's1');
    await world.writeFile.execute({ root: W, path: 'a.txt', content: 'one\n' });
    world.as('local', 's2');
    await world.writeFile.execute({ root: W, path: 'a.txt', content: 'two\n' });
    await world.writeFile.execute({ root: W, path: 'b.bin', content: 'x\u0000y' });
    const { changes } = await world.listChanges.execute({ limit: 2, diff: true }, 's2');
    expect(changes.map((change) => [change.path, change.op, change.session])).toEqual([
      ['b.bin', 'create', 's2'],
      ['a.txt', 'modify', 's2'],
    ]);
    expect(changes[0].diff).toBeUndefined();
    expect(changes[1].diff).toContain('-one\n+two');
    expect(changes[1].before).toMatchObject({ kind: 'file', size: 4, mode: '0644' });
    expect((await world.listChanges.execute({ root: W, path: './a.txt', session: 'this' }, 's1')).changes.map((change) => change.session)).toEqual(['s1']);
    await expect(world.listChanges.execute({ path: 'a.txt' }, 's1')).rejects.toThrow('give root with path');
    await expect(world.listChanges.execute({ root: W, path: '../x' }, 's1')).rejects.toThrow();
  });
});
