import { makeRoot } from '../../support/roots.js';
import { journalWorld } from './journal-world.js';

// Issue 33 point 2: the journal shows no content and no hash that the root's allowlist would not.

const BLIND = makeRoot('blind', '/bl', ['remove_file', 'copy', 'write_file', 'undo_changes']);
const READER = makeRoot('reader', '/rd', ['remove_file', 'copy', 'write_file', 'read_file']);
const HASHER = makeRoot('hasher', '/hs', ['remove_file', 'write_file', 'hash_file']);
const SECRET = 'the secret content\n';

function world() {
  const made = journalWorld({}, undefined, [BLIND, READER, HASHER]);
  made.as('alice');
  return made;
}

async function listed(made: ReturnType<typeof world>, root: string) {
  const { changes } = await made.listChanges.execute({ root, diff: true }, 's1');
  return changes;
}

describe('list_changes and undo_changes show content only where a read tool is allowed (issue 33)', () => {
  it('a root allowing only remove_file, copy and write_file: a removal and a copy list no diff and no sha256', async () => {
    const made = world();
    made.tree.seedFile('/bl/gone.txt', SECRET);
    made.tree.seedFile('/bl/src.txt', SECRET);
    await made.removeFile.execute({ root: 'blind', path: 'gone.txt' });
    await made.copy.execute({ source_root: 'blind', source_path: 'src.txt', dest_root: 'blind', dest_path: 'dst.txt' });
    const changes = await listed(made, 'blind');
    expect(changes.map((change) => [change.op, change.diff, change.diff_omitted])).toEqual([
      ['copy', undefined, 'needs read_file on root blind'],
      ['remove', undefined, 'needs read_file on root blind'],
    ]);
    expect(changes.flatMap((change) => [change.before?.sha256, change.after?.sha256])).toEqual([undefined, null, null, undefined]);
    expect(JSON.stringify(changes)).not.toContain('secret');
  });

  it('a root allowing read_file: the diff, but no sha256 without hash_file', async () => {
    const made = world();
    made.tree.seedFile('/rd/gone.txt', SECRET);
    await made.removeFile.execute({ root: 'reader', path: 'gone.txt' });
    const [change] = await listed(made, 'reader');
    expect(change.diff).toContain('-the secret content');
    expect(change.diff_omitted).toBeUndefined();
    expect(change.before?.sha256).toBeNull();
  });

  it('a root allowing hash_file: the sha256, but no diff without a read tool', async () => {
    const made = world();
    made.tree.seedFile('/hs/gone.txt', SECRET);
    await made.removeFile.execute({ root: 'hasher', path: 'gone.txt' });
    const [change] = await listed(made, 'hasher');
    expect(change.before?.sha256).toMatch(/^[0-9a-f]{64}$/);
    expect(change).toMatchObject({ diff_omitted: 'needs read_file on root hasher' });
    expect(change.diff).toBeUndefined();
  });

  it('a copy needs read_file on the root the bytes came from too', async () => {
    const made = world();
    made.tree.seedFile('/bl/src.txt', SECRET);
    made.tree.seedFile('/ws/src.txt', SECRET);
    await made.copy.execute({ source_root: 'blind', source_path: 'src.txt', dest_root: 'reader', dest_path: 'from-blind.txt' });
    await made.copy.execute({ source_root: 'workspace', source_path: 'src.txt', dest_root: 'reader', dest_path: 'from-ws.txt' });
    const changes = await listed(made, 'reader');
    expect(changes.map((change) => [change.to_path, change.diff_omitted, change.diff?.includes('+the secret content')])).toEqual([
      ['from-ws.txt', undefined, true],
      ['from-blind.txt', 'needs read_file on root blind', undefined],
    ]);
  });

  it('undo_changes dry run: no diff of a removal on a root without read_file; the diff where it is allowed', async () => {
    const made = world();
    made.tree.seedFile('/bl/gone.txt', SECRET);
    made.tree.seedFile('/ws/gone.txt', SECRET);
    await made.removeFile.execute({ root: 'blind', path: 'gone.txt' });
    await made.removeFile.execute({ root: 'workspace', path: 'gone.txt' });
    const blind = await made.undoChanges.execute({ root: 'blind', path: 'gone.txt', dry_run: true }, 's1');
    expect(blind.results).toEqual([expect.objectContaining({ outcome: 'would_restore', diff_omitted: 'needs read_file on root blind' })]);
    expect(JSON.stringify(blind)).not.toContain('secret');
    const open = await made.undoChanges.execute({ root: 'workspace', path: 'gone.txt', dry_run: true }, 's1');
    expect(open.results[0].diff).toContain('+the secret content');
  });
});
