import { makeRoot } from '../../support/roots.js';
import { journalWorld } from './journal-world.js';

const W = 'workspace';
const text = (bytes: Uint8Array | undefined) => (bytes === undefined ? undefined : Buffer.from(bytes).toString());

describe('JournalingFileSystem.copyBatch: a tree copy journaled a folder at a time', () => {
  it('records every folder made and file copied, with the before-image of each file it overwrote; undoing them restores the tree', async () => {
    const world = journalWorld();
    world.tree.seedFile('/ws/src/a.txt', 'new a');
    world.tree.seedFile('/ws/src/sub/b.txt', 'new b');
    world.tree.seedFile('/ws/dst/src/a.txt', 'old a');
    world.as('alice', 's1', 'copy');
    await world.copy.execute({ source_root: W, source_path: 'src', dest_root: W, dest_path: 'dst' });
    const changes = await world.journal.list({});
    expect(changes.map((change) => [change.op, change.path, change.toPath ?? null, change.before?.size ?? null]).sort()).toEqual([
      ['copy', 'src/a.txt', 'dst/src/a.txt', 5],
      ['copy', 'src/sub/b.txt', 'dst/src/sub/b.txt', null],
      ['mkdir', 'dst/src/sub', null, null],
    ]);
    expect(changes.every((change) => change.undoable && change.principal === 'alice')).toBe(true);
    world.as('alice', 's1', 'undo_changes');
    await world.undoChanges.execute({ ids: changes.map((change) => change.id) }, 's1');
    expect(text(world.tree.readBytes('/ws/dst/src/a.txt'))).toBe('old a');
    expect(world.tree.readBytes('/ws/dst/src/sub/b.txt')).toBeUndefined();
    expect(await world.fs.stat({ root: makeRoot('workspace', '/ws'), segments: ['dst', 'src', 'sub'] })).toBeNull();
  });

  it('begins every record of a batch before anything is placed; a record that cannot be made stops the batch, nothing placed, nothing left recorded', async () => {
    const world = journalWorld();
    world.tree.seedFile('/ws/src/a.txt', 'a');
    world.tree.seedFile('/ws/src/b.txt', 'b');
    world.tree.seedDirectory('/ws/dst');
    const begin = world.journal.begin.bind(world.journal);
    const placedAtBegin: boolean[] = [];
    let calls = 0;
    world.journal.begin = async (draft, image) => {
      placedAtBegin.push(world.tree.readBytes('/ws/dst/a.txt') !== undefined);
      if ((calls += 1) === 2) throw Object.assign(new Error('/host/journal: no space'), { code: 'ENOSPC' });
      return begin(draft, image);
    };
    const root = makeRoot('workspace', '/ws');
    const at = (...segments: string[]) => ({ root, segments });
    await expect(
      world.fs.copyBatch([
        { kind: 'file', from: at('src', 'a.txt'), to: at('dst', 'a.txt') },
        { kind: 'file', from: at('src', 'b.txt'), to: at('dst', 'b.txt') },
      ]),
    ).rejects.toMatchObject({ code: 'IO_ERROR' });
    expect(placedAtBegin).toEqual([false, false]);
    expect(world.tree.readBytes('/ws/dst/a.txt')).toBeUndefined();
    expect(world.tree.readBytes('/ws/dst/b.txt')).toBeUndefined();
    expect(await world.journal.list({})).toEqual([]);
  });

  it('splits a batch whose before-images would pass 16 MiB in memory into groups, each begun and placed on its own', async () => {
    const world = journalWorld({ maxBytes: 64 * 1024 * 1024, maxFileBytes: 10 * 1024 * 1024 });
    const big = 'x'.repeat(9 * 1024 * 1024);
    for (const name of ['a', 'b', 'c']) {
      world.tree.seedFile(`/ws/src/${name}.txt`, name);
      world.tree.seedFile(`/ws/dst/${name}.txt`, big);
    }
    const groups: number[] = [];
    const copyBatch = world.tree.copyBatch.bind(world.tree);
    world.tree.copyBatch = (entries, options) => {
      groups.push(entries.length);
      return copyBatch(entries, options);
    };
    const root = makeRoot('workspace', '/ws');
    const at = (...segments: string[]) => ({ root, segments });
    const outcome = await world.fs.copyBatch(['a', 'b', 'c'].map((name) => ({ kind: 'file' as const, from: at('src', `${name}.txt`), to: at('dst', `${name}.txt`) })));
    expect(groups).toEqual([1, 1, 1]);
    expect(outcome).toEqual({ placed: [1, 1, 1].map((size) => ({ size, created: false })) });
    expect((await world.journal.list({})).filter((change) => change.op === 'copy' && change.undoable)).toHaveLength(3);
  });
});
