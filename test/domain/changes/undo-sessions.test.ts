import { UNRESTRICTED_PRINCIPAL } from '../../../src/domain/principal.js';
import { journalWorld } from './journal-world.js';

const W = 'workspace';

describe('UndoChanges: whose changes a path or since_id reaches (issue 32 §5)', () => {
  it("the local operator's path and since_id reach its own session unless session all; ids reach any of them", async () => {
    const world = journalWorld();
    world.as(UNRESTRICTED_PRINCIPAL, 'stdio-aaaa');
    await world.writeFile.execute({ root: W, path: 'a.txt', content: 'first conversation' });
    world.as(UNRESTRICTED_PRINCIPAL, 'stdio-bbbb');
    await world.writeFile.execute({ root: W, path: 'b.txt', content: 'second conversation' });

    expect((await world.undoChanges.execute({ since_id: '00000000000000000', dry_run: true }, 'stdio-bbbb')).results.map((result) => result.path)).toEqual(['b.txt']);
    expect((await world.undoChanges.execute({ root: W, path: 'a.txt' }, 'stdio-bbbb')).results).toEqual([]);
    expect(world.tree.readBytes('/ws/a.txt')).toBeDefined();
    expect((await world.undoChanges.execute({ since_id: '00000000000000000', session: 'all', dry_run: true }, 'stdio-bbbb')).results.map((result) => result.path)).toEqual(['b.txt', 'a.txt']);
    const [theirs] = await world.journal.list({ session: 'stdio-aaaa' });
    expect((await world.undoChanges.execute({ ids: [theirs.id] }, 'stdio-bbbb')).results.map((result) => result.outcome)).toEqual(['restored']);
  });

  it("a token principal's path and since_id reach all of its sessions by default, and session this only the one", async () => {
    const world = journalWorld();
    world.as('token:alice', 's1');
    await world.writeFile.execute({ root: W, path: 'a.txt', content: 'one' });
    world.as('token:alice', 's2');
    await world.writeFile.execute({ root: W, path: 'b.txt', content: 'two' });
    expect((await world.undoChanges.execute({ since_id: '00000000000000000', dry_run: true }, 's2')).results.map((result) => result.path)).toEqual(['b.txt', 'a.txt']);
    expect((await world.undoChanges.execute({ since_id: '00000000000000000', session: 'this', dry_run: true }, 's2')).results.map((result) => result.path)).toEqual(['b.txt']);
  });
});
