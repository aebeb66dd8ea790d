import type { UndoChangesInput } from '../../../src/domain/changes/undo-changes.js';
import { DIFF_TOO_LARGE, MAX_DIFF_VERSION_BYTES, VERSION_TOO_LARGE } from '../../../src/domain/text-diff.js';
import { journalWorld } from './journal-world.js';

const W = 'workspace';
type World = ReturnType<typeof journalWorld>;

/** The dry run's outcomes, then the real call's (same selection), each as [op, path, outcome]. */
async function dryThenReal(world: World, input: UndoChangesInput) {
  const outcomes = (results: { op?: string; path?: string; outcome: string }[]) => results.map((result) => [result.op, result.path, result.outcome]);
  const before = world.tree.list('/ws');
  const dry = await world.undoChanges.execute({ ...input, dry_run: true }, 's1');
  expect(world.tree.list('/ws')).toEqual(before);
  const real = await world.undoChanges.execute(input, 's1');
  return { dry: outcomes(dry.results), real: outcomes(real.results), diffs: dry.results.map((result) => result.diff) };
}

describe('UndoChanges dry run: plays the undos in order, as the real call makes them (issue 32)', () => {
  it('three edits to one file: would_restore three times, as the real call restores three times, each diff against what the newer undo leaves', async () => {
    const world = journalWorld();
    world.tree.seedFile('/ws/a.txt', 'v1\n');
    for (const content of ['v2\n', 'v3 longer\n', 'v4\n']) await world.writeFile.execute({ root: W, path: 'a.txt', content });
    const { dry, real, diffs } = await dryThenReal(world, { root: W, path: 'a.txt' });
    expect(dry).toEqual([
      ['modify', 'a.txt', 'would_restore'],
      ['modify', 'a.txt', 'would_restore'],
      ['modify', 'a.txt', 'would_restore'],
    ]);
    expect(real).toEqual(dry.map(([op, path]) => [op, path, 'restored']));
    expect(diffs.map((diff) => diff?.split('\n').filter((line) => /^[-+][^-+]/.test(line)))).toEqual([
      ['-v4', '+v3 longer'],
      ['-v3 longer', '+v2'],
      ['-v2', '+v1'],
    ]);
    expect(world.tree.readText('/ws/a.txt')).toBe('v1\n');
  });

  it('a create then edits: the edits and then the create would be undone, and are', async () => {
    const world = journalWorld();
    await world.writeFile.execute({ root: W, path: 'new.txt', content: 'one' });
    await world.writeFile.execute({ root: W, path: 'new.txt', content: 'two!' });
    await world.writeFile.execute({ root: W, path: 'new.txt', content: 'three' });
    const { dry, real, diffs } = await dryThenReal(world, { root: W, path: 'new.txt' });
    expect(dry.map(([op, , outcome]) => [op, outcome])).toEqual([
      ['modify', 'would_restore'],
      ['modify', 'would_restore'],
      ['create', 'would_restore'],
    ]);
    expect(real.map(([, , outcome]) => outcome)).toEqual(['restored', 'restored', 'restored']);
    expect(diffs[2]).toContain('-one');
    expect(world.tree.exists('/ws/new.txt')).toBe(false);
  });

  it('edits then a remove, and a create in a made folder: the same outcomes dry and real', async () => {
    const world = journalWorld();
    world.tree.seedFile('/ws/r.txt', 'r1');
    await world.writeFile.execute({ root: W, path: 'r.txt', content: 'r2 is longer' });
    await world.removeFile.execute({ root: W, path: 'r.txt' });
    await world.writeFile.execute({ root: W, path: 'made/x.txt', content: 'x' });
    const { dry, real } = await dryThenReal(world, { since_id: '00000000000000000' });
    expect(dry.map(([op, , outcome]) => [op, outcome])).toEqual([
      ['create', 'would_restore'],
      ['mkdir', 'would_restore'],
      ['remove', 'would_restore'],
      ['modify', 'would_restore'],
    ]);
    expect(real).toEqual(dry.map(([op, path]) => [op, path, 'restored']));
    expect(world.tree.readText('/ws/r.txt')).toBe('r1');
    expect(world.tree.list('/ws')).toEqual(['r.txt']);
  });

  it('a file changed by someone else since: every change of it is a conflict, dry and real alike', async () => {
    const world = journalWorld();
    world.tree.seedFile('/ws/a.txt', 'v1');
    await world.writeFile.execute({ root: W, path: 'a.txt', content: 'v2' });
    await world.writeFile.execute({ root: W, path: 'a.txt', content: 'v3' });
    world.tree.seedFile('/ws/a.txt', 'someone else');
    const { dry, real } = await dryThenReal(world, { root: W, path: 'a.txt' });
    expect(dry.map(([, , outcome]) => outcome)).toEqual(['conflict', 'conflict']);
    expect(real).toEqual(dry);
  });

  it('a move back, then the edit made before it at the origin', async () => {
    const world = journalWorld();
    world.tree.seedFile('/ws/from.txt', 'a');
    await world.writeFile.execute({ root: W, path: 'from.txt', content: 'ab' });
    await world.move.execute({ source_root: W, source_path: 'from.txt', dest_root: W, dest_path: 'to.txt' });
    const { dry, real } = await dryThenReal(world, { since_id: '00000000000000000' });
    expect(dry.map(([op, , outcome]) => [op, outcome])).toEqual([
      ['move', 'would_restore'],
      ['modify', 'would_restore'],
    ]);
    expect(real.map(([, , outcome]) => outcome)).toEqual(['restored', 'restored']);
    expect(world.tree.readText('/ws/from.txt')).toBe('a');
  });
});

describe('UndoChanges dry run: the restorer\'s checks, on the simulated state (issue 32)', () => {
  it('a made folder that now holds a file: a conflict, dry and real alike', async () => {
    const world = journalWorld();
    await world.createFolder.execute({ root: W, path: 'made' });
    world.tree.seedFile('/ws/made/f.txt', 'someone else');
    const { dry, real } = await dryThenReal(world, { root: W, path: 'made' });
    expect(dry).toEqual([['mkdir', 'made', 'conflict']]);
    expect(real).toEqual(dry);
    expect(world.tree.readText('/ws/made/f.txt')).toBe('someone else');
  });

  it('a made folder, then a file created in it: the file\'s undo empties it, so the folder\'s undo restores, dry and real', async () => {
    const world = journalWorld();
    await world.createFolder.execute({ root: W, path: 'made' });
    await world.writeFile.execute({ root: W, path: 'made/x.txt', content: 'x' });
    const { dry, real } = await dryThenReal(world, { since_id: '00000000000000000' });
    expect(dry).toEqual([
      ['create', 'made/x.txt', 'would_restore'],
      ['mkdir', 'made', 'would_restore'],
    ]);
    expect(real).toEqual(dry.map(([op, path]) => [op, path, 'restored']));
    expect(world.tree.exists('/ws/made')).toBe(false);
  });

  it('a file a newer undo puts back in a made folder keeps the folder, dry and real', async () => {
    const world = journalWorld();
    await world.createFolder.execute({ root: W, path: 'made' });
    await world.writeFile.execute({ root: W, path: 'made/x.txt', content: 'x' });
    await world.removeFile.execute({ root: W, path: 'made/x.txt' });
    const [remove, , mkdir] = await world.journal.list({});
    const { dry, real } = await dryThenReal(world, { ids: [remove.id, mkdir.id] });
    expect(dry).toEqual([
      ['remove', 'made/x.txt', 'would_restore'],
      ['mkdir', 'made', 'conflict'],
    ]);
    expect(real).toEqual([
      ['remove', 'made/x.txt', 'restored'],
      ['mkdir', 'made', 'conflict'],
    ]);
  });

  it('a forced undo of a removed folder whose subfolder is now a file: a conflict, dry and real alike', async () => {
    const world = journalWorld();
    world.tree.seedFile('/ws/d/sub/f.txt', 'kept');
    await world.removeFolder.execute({ root: W, path: 'd' });
    world.tree.seedFile('/ws/d/sub', 'someone else');
    const { dry, real } = await dryThenReal(world, { root: W, path: 'd', force: true });
    expect(dry).toEqual([['rmdir', 'd', 'conflict']]);
    expect(real).toEqual(dry);
    expect(world.tree.readText('/ws/d/sub')).toBe('someone else');
  });

  it('a forced undo of an edit where a folder now is: a conflict, dry and real alike', async () => {
    const world = journalWorld();
    world.tree.seedFile('/ws/a.txt', 'v1');
    await world.writeFile.execute({ root: W, path: 'a.txt', content: 'v2' });
    await world.removeFile.execute({ root: W, path: 'a.txt' });
    await world.createFolder.execute({ root: W, path: 'a.txt' });
    const [, , edit] = await world.journal.list({});
    const { dry, real } = await dryThenReal(world, { ids: [edit.id], force: true });
    expect(dry).toEqual([['modify', 'a.txt', 'conflict']]);
    expect(real).toEqual(dry);
    expect(world.tree.kindOf('/ws/a.txt')).toBe('directory');
  });

  it('a forced dry run over a path a newer undo emptied diffs from nothing, not from the change\'s after-state', async () => {
    const world = journalWorld();
    world.tree.seedFile('/ws/a.txt', 'v1\n');
    await world.writeFile.execute({ root: W, path: 'a.txt', content: 'v2\n' });
    await world.removeFile.execute({ root: W, path: 'a.txt' });
    await world.writeFile.execute({ root: W, path: 'a.txt', content: 'v3\n' });
    const [create, , edit] = await world.journal.list({});
    const { dry, real, diffs } = await dryThenReal(world, { ids: [create.id, edit.id], force: true });
    expect(dry).toEqual([
      ['create', 'a.txt', 'would_restore'],
      ['modify', 'a.txt', 'would_restore'],
    ]);
    expect(real).toEqual(dry.map(([op, path]) => [op, path, 'restored']));
    expect(diffs[1]?.split('\n').filter((line) => /^[-+][^-+]/.test(line))).toEqual(['+v1']);
    expect(world.tree.readText('/ws/a.txt')).toBe('v1\n');
  });
});

describe('a forced dry run of a change edited since shows what the force writes over (issue 30)', () => {
  it('the diff goes from what is there now to what the undo restores', async () => {
    const world = journalWorld();
    world.tree.seedFile('/ws/a.txt', 'kept\n');
    await world.writeFile.execute({ root: W, path: 'a.txt', content: 'agent\n' });
    world.tree.seedFile('/ws/a.txt', 'edited by a person\n');
    const [edit] = await world.journal.list({});
    const plain = await world.undoChanges.execute({ ids: [edit.id], dry_run: true }, 's1');
    expect(plain.results).toEqual([expect.objectContaining({ outcome: 'conflict' })]);
    const forced = await world.undoChanges.execute({ ids: [edit.id], dry_run: true, force: true }, 's1');
    expect(forced.results[0].outcome).toBe('would_restore');
    expect(forced.results[0].diff?.split('\n').filter((line) => /^[-+][^-+]/.test(line))).toEqual(['-edited by a person', '+kept']);
    expect(world.tree.readText('/ws/a.txt')).toBe('edited by a person\n');
  });
});

describe('diffs of the journal are bounded (issue 32)', () => {
  it('list_changes and an undo dry run say diff_omitted for a version too large to read and a rewrite too large to diff', async () => {
    const world = journalWorld({ maxFileBytes: 4 * MAX_DIFF_VERSION_BYTES, maxBytes: 32 * MAX_DIFF_VERSION_BYTES });
    const text = (tag: string, count: number) => Array.from({ length: count }, (_, i) => `${tag} ${i}`).join('\n');
    world.tree.seedFile('/ws/huge.txt', 'x'.repeat(MAX_DIFF_VERSION_BYTES + 1));
    await world.writeFile.execute({ root: W, path: 'huge.txt', content: 'y'.repeat(MAX_DIFF_VERSION_BYTES + 1) });
    world.tree.seedFile('/ws/many.txt', text('old', 3000));
    await world.writeFile.execute({ root: W, path: 'many.txt', content: text('new', 3000) });
    await world.writeFile.execute({ root: W, path: 'small.txt', content: 'small\n' });
    const listed = await world.listChanges.execute({ diff: true }, 's1');
    expect(listed.changes.map((change) => [change.path, change.diff_omitted ?? change.diff])).toEqual([
      ['small.txt', '--- a/small.txt\n+++ b/small.txt\n@@ -0,0 +1,1 @@\n+small\n'],
      ['many.txt', DIFF_TOO_LARGE],
      ['huge.txt', VERSION_TOO_LARGE],
    ]);
    expect(listed.diffs_omitted).toBe(2);
    const { results } = await world.undoChanges.execute({ since_id: '00000000000000000', dry_run: true }, 's1');
    expect(results.map((result) => [result.outcome, result.diff_omitted ?? result.diff])).toEqual([
      ['would_restore', '--- a/small.txt\n+++ b/small.txt\n@@ -1,1 +0,0 @@\n-small\n'],
      ['would_restore', DIFF_TOO_LARGE],
      ['would_restore', VERSION_TOO_LARGE],
    ]);
  });
});

describe('UndoChanges: an undo is one change, undone whole (issue 32)', () => {
  it('undoing the undo of a copy over a file of another mode gives back the copy, never deletes the file', async () => {
    const world = journalWorld();
    world.tree.seedFile('/ws/src.txt', 'copied', { permissions: 0o644 });
    world.tree.seedFile('/ws/dest.txt', 'was here', { permissions: 0o600 });
    await world.copy.execute({ source_root: W, source_path: 'src.txt', dest_root: W, dest_path: 'dest.txt' });
    world.as('local', 's1', 'undo_changes');
    const [copy] = await world.journal.list({ limit: 1 });
    expect((await world.undoChanges.execute({ ids: [copy.id] }, 's1')).results[0].outcome).toBe('restored');
    expect([world.tree.readText('/ws/dest.txt'), world.tree.permissionsOf('/ws/dest.txt')]).toEqual(['was here', 0o600]);
    // "Undo my last change": the newest record is the whole undo.
    const [last] = (await world.listChanges.execute({ limit: 1 }, 's1')).changes;
    expect(last).toMatchObject({ op: 'modify', tool: 'undo_changes', before: { mode: '0644' }, after: { mode: '0600' } });
    expect((await world.undoChanges.execute({ ids: [last.id] }, 's1')).results[0].outcome).toBe('restored');
    expect([world.tree.readText('/ws/dest.txt'), world.tree.permissionsOf('/ws/dest.txt')]).toEqual(['copied', 0o644]);
  });

  it('a forced undo after a chmod is one change; undoing it returns the file as it was before the undo', async () => {
    const world = journalWorld();
    world.tree.seedFile('/ws/a.txt', 'v1', { permissions: 0o644 });
    await world.writeFile.execute({ root: W, path: 'a.txt', content: 'v2' });
    const [edit] = await world.journal.list({});
    world.tree.seedFile('/ws/a.txt', 'v2', { permissions: 0o600 });
    world.as('local', 's1', 'undo_changes');
    expect((await world.undoChanges.execute({ ids: [edit.id], force: true }, 's1')).results[0].outcome).toBe('restored');
    const undos = await world.journal.list({ afterId: edit.id });
    expect(undos.map((change) => change.op)).toEqual(['modify']);
    expect((await world.undoChanges.execute({ ids: [undos[0].id] }, 's1')).results[0].outcome).toBe('restored');
    expect([world.tree.readText('/ws/a.txt'), world.tree.permissionsOf('/ws/a.txt')]).toEqual(['v2', 0o600]);
  });
});
