import { recoverJournal } from '../../../src/domain/changes/recovery.js';
import { PathPolicy } from '../../../src/domain/path-policy.js';
import { draft } from '../../adapters/outbound/journal/change-journal.contract.js';
import { makeRoot } from '../../support/roots.js';
import { journalWorld } from './journal-world.js';

describe('recoverJournal: an interrupted record is finished or dropped by what the root holds', () => {
  it('commits a change that was made, drops one that was not, and drops its image with it', async () => {
    const world = journalWorld();
    const workspace = makeRoot('workspace', '/ws');
    const paths = new PathPolicy([workspace]);
    const here = world.fs.snapshots.rootKey(workspace);
    world.tree.seedFile('/ws/made.txt', 'new');
    world.tree.seedFile('/ws/kept.txt', 'old');
    const sha = (text: string) => world.fs.snapshots.sha256(new TextEncoder().encode(text));
    const state = (text: string) => ({ kind: 'file' as const, size: text.length, mode: 0o644, sha256: sha(text) });
    const image = { entries: [{ relativePath: '', kind: 'file' as const, mode: 0o644, content: new TextEncoder().encode('old') }] };
    const made = await world.journal.begin(draft({ rootKey: here, path: 'made.txt', before: state('old'), after: state('new') }), image);
    const notMade = await world.journal.begin(draft({ rootKey: here, path: 'kept.txt', before: state('old'), after: state('new') }), image);
    const removed = await world.journal.begin(draft({ rootKey: here, op: 'remove', path: 'ghost.txt', before: state('old'), after: null }), image);
    const moved = await world.journal.begin(draft({ rootKey: here, toRootKey: here, op: 'move', path: 'kept.txt', toRoot: 'workspace', toPath: 'there.txt', before: state('old'), after: state('old') }), null);
    // A root of the same name in another deployment sharing the journal directory: left alone.
    const elsewhere = await world.journal.begin(draft({ rootKey: 'another-dir', path: 'made.txt', before: state('old'), after: state('new') }), image);
    expect(await recoverJournal(world.journal, paths, world.fs.snapshots)).toEqual({ committed: 2, dropped: 2 });
    expect((await world.journal.pending()).map((record) => record.id)).toEqual([elsewhere]);
    await world.journal.abort(elsewhere);
    expect((await world.journal.list({})).map((change) => change.id).sort()).toEqual([made, removed].sort());
    expect(await world.journal.pending()).toEqual([]);
    expect(await world.journal.image(notMade)).toBeNull();
    expect(await world.journal.image(moved)).toBeNull();
    expect(await world.journal.image(made)).not.toBeNull();
  });
});
