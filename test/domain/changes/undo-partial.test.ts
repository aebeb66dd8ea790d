import { THE_START } from '../../../src/domain/changes/change-id.js';
import { journalWorld } from './journal-world.js';

const W = 'workspace';

describe('UndoChanges: a partial undo answers each change its own outcome (issue 33 §5)', () => {
  it('restores X and answers Y denied, naming root, path and why, when Y\'s path now goes through a link leading outside the root', async () => {
    const world = journalWorld();
    world.tree.seedDirectory('/outside');
    world.tree.seedFile('/outside/y.txt', 'y');
    await world.writeFile.execute({ root: W, path: 'd/y.txt', content: 'y' });
    world.tree.seedFile('/ws/x.txt', 'x before');
    await world.writeFile.execute({ root: W, path: 'x.txt', content: 'x after' });
    const byPath = new Map((await world.journal.list({})).map((change) => [change.path, change.id]));
    world.tree.seedSymlink('/ws/d', '/outside');

    const { results } = await world.undoChanges.execute({ ids: [byPath.get('x.txt')!, byPath.get('d/y.txt')!] }, 's1');
    expect(results).toEqual([
      { id: byPath.get('x.txt'), op: 'modify', root: W, path: 'x.txt', outcome: 'restored' },
      { id: byPath.get('d/y.txt'), op: 'create', root: W, path: 'd/y.txt', outcome: 'denied', reason: 'path resolves outside root boundary: d/y.txt (root: workspace)' },
    ]);
    expect(world.tree.readText('/ws/x.txt')).toBe('x before');
    expect(world.tree.readText('/outside/y.txt')).toBe('y');
    expect(world.outcomes).toEqual(['restored', 'denied']);
    // The denied change keeps no claim: once the link is gone, it can be undone.
    expect((await world.journal.get(byPath.get('d/y.txt')!))?.undoneBy).toBeUndefined();
  });

  it('a dry run answers the same: would_restore for X, denied for Y', async () => {
    const world = journalWorld();
    world.tree.seedDirectory('/outside');
    await world.writeFile.execute({ root: W, path: 'd/y.txt', content: 'y' });
    await world.writeFile.execute({ root: W, path: 'x.txt', content: 'x' });
    world.tree.seedSymlink('/ws/d', '/outside');
    const { results } = await world.undoChanges.execute({ since_id: THE_START, dry_run: true }, 's1');
    expect(results.map((result) => [result.path, result.outcome])).toEqual([
      ['x.txt', 'would_restore'],
      ['d/y.txt', 'denied'],
      // The folder the write made is a link now: a conflict, as it was before issue 33.
      ['d', 'conflict'],
    ]);
    expect(world.tree.readText('/ws/x.txt')).toBe('x');
  });
});
