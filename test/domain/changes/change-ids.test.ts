import { THE_START } from '../../../src/domain/changes/change-id.js';
import type { DomainError } from '../../../src/domain/errors.js';
import { journalWorld } from './journal-world.js';

const W = 'workspace';

async function codeOf(call: Promise<unknown>): Promise<string> {
  return call.then(
    () => 'resolved',
    (error: DomainError) => error.code,
  );
}

describe('change ids given to list_changes and undo_changes are checked, never read as "everything"', () => {
  it('a malformed since_id, before_id or entry of ids is INVALID_ARGUMENT, and nothing is undone', async () => {
    const world = journalWorld();
    await world.writeFile.execute({ root: W, path: 'a.txt', content: 'one' });
    for (const bad of ['0', 'garbage', '', '../records/x', 'ZZZZZZZZZZZZZZZZZ', '0'.repeat(18)]) {
      expect(await codeOf(world.undoChanges.execute({ since_id: bad }, 's1'))).toBe('INVALID_ARGUMENT');
      expect(await codeOf(world.undoChanges.execute({ ids: [bad] }, 's1'))).toBe('INVALID_ARGUMENT');
      expect(await codeOf(world.listChanges.execute({ before_id: bad }, 's1'))).toBe('INVALID_ARGUMENT');
    }
    expect(world.tree.readText('/ws/a.txt')).toBe('one');
  });

  it('a well-formed id that is not in the journal is NOT_FOUND for since_id and before_id', async () => {
    const world = journalWorld();
    await world.writeFile.execute({ root: W, path: 'a.txt', content: 'one' });
    await expect(world.undoChanges.execute({ since_id: 'zzzzzzzzzzzzzzzzz' }, 's1')).rejects.toThrow('since_id: no change zzzzzzzzzzzzzzzzz of yours');
    expect(await codeOf(world.listChanges.execute({ before_id: '0000000000000000a' }, 's1'))).toBe('NOT_FOUND');
    expect(world.tree.readText('/ws/a.txt')).toBe('one');
  });

  it("another principal's id answers as an unknown one (ids cannot be probed)", async () => {
    const world = journalWorld();
    world.as('alice', 'sa');
    await world.writeFile.execute({ root: W, path: 'alice.txt', content: 'mine' });
    const [hers] = await world.journal.list({});
    world.as('bob', 'sb');
    expect(await codeOf(world.listChanges.execute({ before_id: hers.id }, 'sb'))).toBe('NOT_FOUND');
    expect(await codeOf(world.undoChanges.execute({ since_id: hers.id }, 'sb'))).toBe('NOT_FOUND');
    world.as('alice', 'sa');
    expect((await world.listChanges.execute({ before_id: hers.id }, 'sa')).changes).toEqual([]);
  });

  it('a known id pages and selects as before; since_id 00000000000000000 is the documented start', async () => {
    const world = journalWorld();
    for (const content of ['1', '2', '3']) await world.writeFile.execute({ root: W, path: 'a.txt', content });
    const [third, second, first] = await world.journal.list({});
    expect((await world.listChanges.execute({ before_id: third.id }, 's1')).changes.map((change) => change.id)).toEqual([second.id, first.id]);
    expect((await world.undoChanges.execute({ since_id: second.id, dry_run: true }, 's1')).results.map((result) => result.id)).toEqual([third.id]);
    expect((await world.undoChanges.execute({ since_id: THE_START, dry_run: true }, 's1')).results).toHaveLength(3);
  });
});
