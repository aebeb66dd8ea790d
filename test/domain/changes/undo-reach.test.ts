import { journalWorld } from './journal-world.js';

const W = 'workspace';

describe('JournalingFileSystem tells each call how far an undo reaches (issue 32 §1)', () => {
  it('keeps the regular files of a removed tree that holds a link and a fifo; only those are named not restorable, and the undo brings the rest back', async () => {
    const world = journalWorld();
    world.tree.seedFile('/ws/ltree/small.txt', 'keep me');
    world.tree.seedFile('/ws/ltree/sub/deep.txt', 'me too');
    world.tree.seedSymlink('/ws/ltree/l', 'small.txt');
    world.tree.seedFifo('/ws/ltree/sub/pipe');
    await world.removeFolder.execute({ root: W, path: 'ltree' });
    const [change] = await world.journal.list({});
    const lost = 'an undo brings the folder back without ltree/l (a symbolic link), ltree/sub/pipe (a special file), which it cannot recreate';
    expect(change).toMatchObject({ op: 'rmdir', undoable: true, notRestorable: lost });
    expect(change.reason).toBeUndefined();
    expect(world.reaches).toEqual([{ root: W, path: 'ltree', undoable: 'partly', reason: lost }]);

    const dry = await world.undoChanges.execute({ ids: [change.id], dry_run: true }, 's1');
    expect(dry.results.map((result) => [result.outcome, result.reason])).toEqual([['would_restore', lost]]);
    const { results } = await world.undoChanges.execute({ ids: [change.id] }, 's1');
    expect(results.map((result) => [result.outcome, result.reason])).toEqual([['restored', lost]]);
    expect(Buffer.from(world.tree.readBytes('/ws/ltree/small.txt')!).toString()).toBe('keep me');
    expect(Buffer.from(world.tree.readBytes('/ws/ltree/sub/deep.txt')!).toString()).toBe('me too');
    expect(world.tree.list('/ws/ltree')).toEqual(['small.txt', 'sub']);
  });

  it('a removal of a tree with a link that fails before removing anything is not recorded (the link counts as still there)', async () => {
    const world = journalWorld();
    world.tree.seedFile('/ws/ltree/small.txt', 'x');
    world.tree.seedSymlink('/ws/ltree/l', 'small.txt');
    const remove = world.tree.removeDirectory.bind(world.tree);
    world.tree.removeDirectory = () => Promise.reject(new Error('refused before removing anything'));
    await expect(world.removeFolder.execute({ root: W, path: 'ltree' })).rejects.toThrow();
    world.tree.removeDirectory = remove;
    expect(await world.journal.list({})).toEqual([]);
    expect(world.reaches).toEqual([]);
  });

  it('says undoable false, with the reason, for a removed link, a file over max_file_bytes, an overwrite and an append of one', async () => {
    const world = journalWorld({ maxFileBytes: 8, maxBytes: 100 });
    world.tree.seedFile('/ws/big.log', '0123456789');
    world.tree.seedFile('/ws/big2.txt', '0123456789');
    world.tree.seedFile('/ws/big3.txt', '0123456789');
    world.tree.seedSymlink('/ws/link', 'big.log');
    await world.writeFile.execute({ root: W, path: 'big.log', content: 'more\n', mode: 'append' });
    await world.writeFile.execute({ root: W, path: 'big2.txt', content: 'small' });
    await world.removeFile.execute({ root: W, path: 'big3.txt' });
    await world.removeFile.execute({ root: W, path: 'link' });
    expect(world.reaches.map((reach) => [reach.path, reach.undoable])).toEqual([
      ['big.log', false],
      ['big2.txt', false],
      ['big3.txt', false],
      ['link', false],
    ]);
    expect(world.reaches[0].reason).toContain('larger than the journal keeps (10 bytes > journal.max_file_bytes 8)');
    expect(world.reaches[3].reason).toBe('a symbolic link cannot be recreated by an undo');
  });

  it('says undoable true for what an undo takes back whole, and nothing for a change that was not made', async () => {
    const world = journalWorld();
    await world.writeFile.execute({ root: W, path: 'dir/a.txt', content: 'x' });
    await expect(world.writeFile.execute({ root: W, path: 'dir/a.txt', content: 'y', mode: 'create_only' })).rejects.toThrow('file already exists');
    expect(world.reaches).toEqual([
      { root: W, path: 'dir', undoable: true },
      { root: W, path: 'dir/a.txt', undoable: true },
    ]);
  });
});
