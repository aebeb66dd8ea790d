import { DomainError } from '../../../src/domain/errors.js';
import { THE_START } from '../../../src/domain/changes/change-id.js';
import { journalWorld } from './journal-world.js';

const W = 'workspace';

// What the /changes page asks of list_changes besides the tool's input: what is new since an id
// (the live stream), and one change with its diff (issue 30 §2).
describe('list_changes for the review page: since_id and one change', () => {
  it('since_id lists only the later changes, THE_START all of them, and an unknown id is refused', async () => {
    const world = journalWorld();
    world.as('token:alice', 's1');
    await world.writeFile.execute({ root: W, path: 'a.txt', content: 'one\n' });
    const [first] = (await world.listChanges.execute({}, 's1')).changes;
    await world.writeFile.execute({ root: W, path: 'b.txt', content: 'two\n' });
    expect((await world.listChanges.execute({ since_id: first.id }, 's1')).changes.map((change) => change.path)).toEqual(['b.txt']);
    expect((await world.listChanges.execute({ since_id: THE_START }, 's1')).changes.map((change) => change.path)).toEqual(['b.txt', 'a.txt']);
    world.as('token:bob', 's2');
    await expect(world.listChanges.execute({ since_id: first.id }, 's2')).rejects.toMatchObject({ code: 'NOT_FOUND' });
  });

  it("one(id) gives the caller's change with its diff; another principal's id is NOT_FOUND, as if it did not exist", async () => {
    const world = journalWorld();
    world.as('token:alice', 's1');
    await world.writeFile.execute({ root: W, path: 'a.txt', content: 'one\n' });
    await world.writeFile.execute({ root: W, path: 'a.txt', content: 'one\ntwo\n' });
    const [latest] = (await world.listChanges.execute({}, 's1')).changes;
    const shown = await world.listChanges.one(latest.id);
    expect(shown).toMatchObject({ id: latest.id, op: 'modify', path: 'a.txt' });
    expect(shown.diff).toContain('+two');
    world.as('token:bob', 's2');
    const refused = await world.listChanges.one(latest.id).catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(DomainError);
    expect(refused).toMatchObject({ code: 'NOT_FOUND' });
    expect((refused as Error).message).not.toContain('alice');
    await expect(world.listChanges.one('../etc/passwd')).rejects.toMatchObject({ code: 'INVALID_ARGUMENT' });
  });
});
