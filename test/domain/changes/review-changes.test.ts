import { ReviewChanges } from '../../../src/domain/changes/review-changes.js';
import { journalWorld } from './journal-world.js';

const W = 'workspace';

// review_changes (issue 30.1): list_changes with diffs, grouped by the file each change leaves behind.
describe('ReviewChanges', () => {
  it("groups the caller's changes by file, newest first, a move under its destination, each with its diff", async () => {
    const world = journalWorld();
    world.as('token:alice', 's1');
    await world.writeFile.execute({ root: W, path: 'a.txt', content: 'one\n' });
    await world.writeFile.execute({ root: W, path: 'src.txt', content: 'moving\n' });
    await world.writeFile.execute({ root: W, path: 'a.txt', content: 'one\ntwo\n' });
    await world.move.execute({ source_root: W, source_path: 'src.txt', dest_root: W, dest_path: 'moved.txt' });
    const review = await new ReviewChanges(world.listChanges).execute({}, 's1');
    expect(review.files.map((file) => [file.path, file.changes.map((change) => change.op)])).toEqual([
      ['moved.txt', ['move']],
      ['a.txt', ['modify', 'create']],
      ['src.txt', ['create']],
    ]);
    expect(review.changes.map((change) => change.id)).toEqual((await world.listChanges.execute({}, 's1')).changes.map((change) => change.id));
    expect(review.files[1].changes[0].diff).toContain('+two');
  });

  it("shows exactly what list_changes shows the caller: never another principal's changes", async () => {
    const world = journalWorld();
    world.as('token:alice', 's1');
    await world.writeFile.execute({ root: W, path: 'alice.txt', content: 'a\n' });
    world.as('token:bob', 's2');
    await world.writeFile.execute({ root: W, path: 'bob.txt', content: 'b\n' });
    const review = new ReviewChanges(world.listChanges);
    expect((await review.execute({}, 's2')).files.map((file) => file.path)).toEqual(['bob.txt']);
    world.as('token:alice', 's1');
    expect((await review.execute({ root: W, path: 'alice.txt' }, 's1')).files.map((file) => file.path)).toEqual(['alice.txt']);
    await expect(review.execute({ path: 'alice.txt' }, 's1')).rejects.toMatchObject({ code: 'INVALID_ARGUMENT' });
  });
});
