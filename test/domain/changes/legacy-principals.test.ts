import { principalName, UNRESTRICTED_PRINCIPAL } from '../../../src/domain/principal.js';
import { journalWorld } from './journal-world.js';

const W = 'workspace';

describe('a journal written before principal names carried their source (issue 33 §5)', () => {
  it('names a token and an OAuth subject of one word apart, and neither is the local operator', () => {
    expect(principalName('token', 'local')).toBe('token:local');
    expect(principalName('oauth', 'local')).toBe('oauth:local');
    expect(new Set([principalName('token', 'ci'), principalName('oauth', 'ci'), UNRESTRICTED_PRINCIPAL.name]).size).toBe(3);
  });

  it("keeps a bare-named record listed and undoable for the local operator, and claimable by no token of that name", async () => {
    const world = journalWorld();
    world.as('alice', 's-old');
    await world.writeFile.execute({ root: W, path: 'old.txt', content: 'written by token alice, before' });
    const [legacy] = await world.journal.list({});

    world.as({ name: principalName('token', 'alice'), readOnly: false }, 's-new');
    expect((await world.listChanges.execute({}, 's-new')).changes).toEqual([]);
    expect((await world.undoChanges.execute({ ids: [legacy.id] }, 's-new')).results).toEqual([expect.objectContaining({ outcome: 'not_undoable' })]);

    world.as(UNRESTRICTED_PRINCIPAL, 'stdio-1');
    expect((await world.listChanges.execute({}, 'stdio-1')).changes).toEqual([expect.objectContaining({ id: legacy.id, principal: 'alice', undoable: true })]);
    expect((await world.undoChanges.execute({ ids: [legacy.id] }, 'stdio-1')).results).toEqual([expect.objectContaining({ outcome: 'restored' })]);
    expect(world.tree.readBytes('/ws/old.txt')).toBeUndefined();
  });
});
