import { journalWorld } from './journal-world.js';

const W = 'workspace';

describe('JournalingFileSystem: every write is recorded before it is acknowledged', () => {
  it('records a create, a modify and an append with before and after states and the caller', async () => {
    const world = journalWorld();
    world.as('alice', 's1', 'write_file');
    await world.writeFile.execute({ root: W, path: 'a.txt', content: 'one\n' });
    await world.writeFile.execute({ root: W, path: 'a.txt', content: 'two\n' });
    await world.writeFile.execute({ root: W, path: 'a.txt', content: 'three\n', mode: 'append' });
    const changes = await world.journal.list({});
    expect(changes.map((change) => [change.op, change.before?.size ?? null, change.after?.size, change.principal, change.session, change.tool])).toEqual([
      ['modify', 4, 10, 'alice', 's1', 'write_file'],
      ['modify', 4, 4, 'alice', 's1', 'write_file'],
      ['create', null, 4, 'alice', 's1', 'write_file'],
    ]);
    expect(changes.every((change) => change.undoable && change.root === W && change.path === 'a.txt')).toBe(true);
    const appended = changes[0];
    expect(appended.after?.sha256).toBe(world.fs.snapshots.sha256(world.tree.readBytes('/ws/a.txt')!));
    const image = await world.journal.image(appended.id);
    expect(Buffer.from(image!.entries[0].content!).toString()).toBe('two\n');
  });

  it('records nothing for a write that fails, and keeps no image', async () => {
    const world = journalWorld();
    world.tree.seedFile('/ws/a.txt', 'keep');
    world.tree.failNextWrite('/ws/a.txt');
    await expect(world.writeFile.execute({ root: W, path: 'a.txt', content: 'x' })).rejects.toThrow();
    await expect(world.writeFile.execute({ root: W, path: 'a.txt', content: 'x', mode: 'create_only' })).rejects.toThrow('file already exists');
    expect(await world.journal.list({})).toEqual([]);
    expect(await world.journal.usage()).toEqual({ bytes: 0, records: 0 });
  });

  it('a write whose record cannot be made is not made: IO_ERROR naming the root and path, nothing changed', async () => {
    const world = journalWorld();
    world.tree.seedFile('/ws/a.txt', 'keep');
    const begin = world.journal.begin.bind(world.journal);
    let failing = true;
    world.journal.begin = (draft, image) => (failing ? Promise.reject(Object.assign(new Error('/host/journal: no space'), { code: 'ENOSPC' })) : begin(draft, image));
    for (const mode of ['overwrite', 'append', 'create_only'] as const) {
      const path = mode === 'create_only' ? 'new.txt' : 'a.txt';
      const refused = world.writeFile.execute({ root: W, path, content: 'x', mode });
      await expect(refused).rejects.toMatchObject({ code: 'IO_ERROR' });
      await expect(refused).rejects.toThrow(`the change journal could not record this change, so it was not made: ${path} (root: workspace)`);
      await expect(refused).rejects.not.toThrow('/host');
    }
    expect(Buffer.from(world.tree.readBytes('/ws/a.txt')!).toString()).toBe('keep');
    expect(world.tree.readBytes('/ws/new.txt')).toBeUndefined();
    failing = false;
    await world.writeFile.execute({ root: W, path: 'a.txt', content: 'x' });
    expect((await world.journal.list({})).map((change) => change.op)).toEqual(['modify']);
  });

  it('a file rewritten between its before-image and its removal is read again: the image is what was removed', async () => {
    const world = journalWorld();
    world.tree.seedFile('/ws/a.txt', 'first');
    const remove = world.tree.removeFile.bind(world.tree);
    let writes = 0;
    // Another writer gets in once, after the journal read the file and before the removal.
    world.tree.removeFile = async (path, options) => {
      if (writes++ === 0) world.tree.seedFile('/ws/a.txt', 'second');
      return remove(path, options);
    };
    await world.removeFile.execute({ root: W, path: 'a.txt' });
    const [removed] = await world.journal.list({});
    expect(Buffer.from((await world.journal.image(removed.id))!.entries[0].content!).toString()).toBe('second');
    expect(removed.before?.size).toBe(6);
    world.as('local', 's1', 'undo_changes');
    await world.undoChanges.execute({ ids: [removed.id] }, 's1');
    expect(Buffer.from(world.tree.readBytes('/ws/a.txt')!).toString()).toBe('second');
  });

  it('records remove, mkdir (the shallowest folder made), rmdir with its tree, copy and move', async () => {
    const world = journalWorld();
    world.tree.seedFile('/ws/gone.txt', 'bye', { permissions: 0o600 });
    world.tree.seedFile('/ws/tree/x.txt', 'x');
    world.tree.seedFile('/ws/tree/sub/y.txt', 'y');
    world.tree.seedFile('/ws/src.txt', 'src');
    await world.removeFile.execute({ root: W, path: 'gone.txt' });
    await world.createFolder.execute({ root: W, path: 'new/deep/er' });
    await world.removeFolder.execute({ root: W, path: 'tree' });
    await world.copy.execute({ source_root: W, source_path: 'src.txt', dest_root: W, dest_path: 'copy.txt' });
    await world.move.execute({ source_root: W, source_path: 'src.txt', dest_root: W, dest_path: 'moved.txt' });
    const changes = await world.journal.list({});
    expect(changes.map((change) => [change.op, change.path, change.toPath ?? null])).toEqual([
      ['move', 'src.txt', 'moved.txt'],
      ['copy', 'src.txt', 'copy.txt'],
      ['rmdir', 'tree', null],
      ['mkdir', 'new', null],
      ['remove', 'gone.txt', null],
    ]);
    const tree = await world.journal.image(changes[2].id);
    expect(tree!.entries.map((entry) => [entry.relativePath, entry.kind])).toEqual([
      ['', 'directory'],
      ['sub', 'directory'],
      ['sub/y.txt', 'file'],
      ['x.txt', 'file'],
    ]);
    expect((await world.journal.image(changes[4].id))!.entries[0]).toMatchObject({ mode: 0o600 });
  });

  it('keeps a folder named like our work files in a removed tree; a file named like one makes the removal not undoable', async () => {
    const world = journalWorld();
    world.tree.seedFile('/ws/a/.mcp-fs-0123456789abcdef.tmp/x.txt', 'x');
    world.tree.seedFile('/ws/b/.mcp-fs-0123456789abcdef.lock', 'a lock, or a file named like one');
    await world.removeFolder.execute({ root: W, path: 'a' });
    await world.removeFolder.execute({ root: W, path: 'b' });
    const [b, a] = await world.journal.list({});
    expect((await world.journal.image(a.id))!.entries.map((entry) => entry.relativePath)).toEqual(['', '.mcp-fs-0123456789abcdef.tmp', '.mcp-fs-0123456789abcdef.tmp/x.txt']);
    expect(b).toMatchObject({ op: 'rmdir', path: 'b', undoable: false, reason: 'the folder holds .mcp-fs-0123456789abcdef.lock, named like a write in progress, which an undo cannot tell from one' });
    expect(await world.journal.image(b.id)).toBeNull();
  });

  it('keeps no image larger than max_file_bytes: the change is listed, not undoable, with the reason', async () => {
    const world = journalWorld({ maxFileBytes: 8, maxBytes: 100 });
    world.tree.seedFile('/ws/big.txt', '0123456789');
    await world.writeFile.execute({ root: W, path: 'big.txt', content: 'small' });
    const [change] = await world.journal.list({});
    expect(change).toMatchObject({ op: 'modify', undoable: false });
    expect(change.reason).toContain('journal.max_file_bytes 8');
    expect(await world.journal.image(change.id)).toBeNull();
  });

  it('evicts the oldest before-images past max_bytes; the evicted change stays listed, not undoable', async () => {
    const world = journalWorld({ maxFileBytes: 10, maxBytes: 20 });
    for (const name of ['a', 'b', 'c']) world.tree.seedFile(`/ws/${name}.txt`, '0123456789');
    for (const name of ['a', 'b', 'c']) await world.writeFile.execute({ root: W, path: `${name}.txt`, content: 'new' });
    const [c, b, a] = await world.journal.list({});
    expect([a.undoable, b.undoable, c.undoable]).toEqual([false, true, true]);
    expect(a.reason).toContain('evicted');
    expect(await world.journal.usage()).toMatchObject({ bytes: 20 });
  });

  it('forgets changes older than the retention', async () => {
    const world = journalWorld({ retentionMs: 1000 });
    await world.writeFile.execute({ root: W, path: 'old.txt', content: 'x' });
    world.clock.advance(61_000);
    await world.writeFile.execute({ root: W, path: 'new.txt', content: 'y' });
    expect((await world.journal.list({})).map((change) => change.path)).toEqual(['new.txt']);
  });
});
