import type { InMemoryFileSystem } from '../../../src/adapters/outbound/in-memory-file-system.js';
import { THE_START } from '../../../src/domain/changes/change-id.js';
import { Restorer } from '../../../src/domain/changes/restorer.js';
import { recoverUndos } from '../../../src/domain/changes/undo-recovery.js';
import type { ChangeJournal } from '../../../src/domain/ports/change-journal.port.js';
import type { FileSystemPort } from '../../../src/domain/ports/file-system.port.js';
import { journalWorld } from './journal-world.js';

const W = 'workspace';
const WRITES = new Set(['writeFile', 'createDirectory', 'removeFile', 'removeDirectory', 'rename', 'copyFile']);

/** Every file and folder under `dir`, with its content and mode: what the disk holds. */
function dump(tree: InMemoryFileSystem, dir: string): Record<string, string> {
  const found: Record<string, string> = {};
  for (const name of tree.list(dir)) {
    const path = `${dir}/${name}`;
    const mode = (tree.permissionsOf(path) ?? 0).toString(8);
    if (tree.kindOf(path) === 'directory') Object.assign(found, { [`${path}/`]: mode }, dump(tree, path));
    else found[path] = `${mode} ${tree.readText(path)}`;
  }
  return found;
}

/** A world with one change of each kind made after the seed; returns the changes' ids, oldest first. */
async function changed(world: ReturnType<typeof journalWorld>): Promise<string[]> {
  const { tree } = world;
  tree.seedFile('/ws/keep.txt', 'keep\n', { permissions: 0o640 });
  tree.seedFile('/ws/gone.txt', 'gone\n', { permissions: 0o600 });
  tree.seedFile('/ws/tree/a.txt', 'a');
  tree.seedFile('/ws/tree/sub/b.txt', 'b', { permissions: 0o600 });
  tree.seedFile('/ws/tree/sub/deeper/c.txt', 'c');
  tree.seedDirectory('/ws/tree/empty');
  tree.seedFile('/ws/src.txt', 'src');
  tree.seedFile('/ws/dest.txt', 'was here');
  tree.seedFile('/ws/other.txt', 'other');
  world.as('alice');
  await world.writeFile.execute({ root: W, path: 'keep.txt', content: 'rewritten\n' });
  await world.writeFile.execute({ root: W, path: 'keep.txt', content: 'more\n', mode: 'append' });
  await world.removeFile.execute({ root: W, path: 'gone.txt' });
  await world.removeFolder.execute({ root: W, path: 'tree' });
  await world.move.execute({ source_root: W, source_path: 'src.txt', dest_root: W, dest_path: 'dest.txt' });
  await world.writeFile.execute({ root: W, path: 'new.txt', content: 'new' });
  await world.copy.execute({ source_root: W, source_path: 'other.txt', dest_root: W, dest_path: 'copy.txt' });
  await world.createFolder.execute({ root: W, path: 'made/deeper' });
  return (await world.journal.list({})).map((change) => change.id).reverse();
}

/**
 * A kill -9 after `steps` writes (to the root, or an undo's claim, finish or release in the
 * journal): from the next one on, none returns, as a killed process never runs on. `crashed`
 * resolves at the kill; a step already under way then ends as a write the kill came just after.
 */
function killedAfter(steps: number, fs: FileSystemPort, journal: ChangeJournal) {
  let left = steps;
  let crash: () => void = () => undefined;
  const crashed = new Promise<'crashed'>((resolve) => (crash = () => resolve('crashed')));
  const gate = (run: () => Promise<unknown>) => {
    if (left-- > 0) return run();
    crash();
    return new Promise<never>(() => undefined);
  };
  const stopping = <T extends object>(target: T, names: Set<string>): T =>
    new Proxy(target, {
      get(object, name, receiver) {
        const value = Reflect.get(object, name, receiver) as unknown;
        if (typeof value !== 'function') return value;
        const call = (...args: unknown[]) => (value as (...a: unknown[]) => unknown).apply(object, args);
        return names.has(String(name)) ? (...args: unknown[]) => gate(async () => call(...args)) : call;
      },
    });
  return { fs: stopping(fs, WRITES), journal: stopping(journal, new Set(['claimUndo', 'finishUndo', 'releaseUndo'])), crashed };
}

describe('recoverUndos: an undo cut short by a kill is finished or given back, never left lying (issue 27)', () => {
  it('at every step of two undo calls at once, after a restart each change is restored or undoable, and undoing them all gives back the seed', async () => {
    let steps = 0;
    for (; ; steps += 1) {
      const world = journalWorld();
      const ids = await changed(world);
      const seed = journalWorld();
      await changed(seed);
      const killed = killedAfter(steps, world.fs, world.journal);
      const undo = world.undoVia(killed.journal, killed.fs);
      // Two sessions at once: one by since_id, one by ids (half of them).
      const calls = Promise.all([undo.execute({ since_id: THE_START }, 's1'), undo.execute({ ids: ids.filter((_, index) => index % 2 === 0) }, 's2')]);
      if ((await Promise.race([calls, killed.crashed])) !== 'crashed') break;
      await new Promise((resolve) => setTimeout(resolve, 5));

      const restarted = world.journal.restarted();
      await recoverUndos(restarted, world.paths, world.fs.snapshots, new Restorer(world.fs));
      expect(await restarted.undosInFlight()).toEqual([]);
      // Whatever says undone is restored: undoing every change again restores the rest, and none is stuck.
      const again = world.undoVia(restarted, world.fs);
      const { results } = await again.execute({ ids }, 's3');
      for (const result of results) expect([steps, result.id, result.outcome === 'restored' || /^already undone/.test(result.reason ?? '')]).toEqual([steps, result.id, true]);
      const original = dump(world.tree, '/ws');
      const { results: seedResults } = await seed.undoChanges.execute({ ids: (await seed.journal.list({})).map((change) => change.id) }, 's1');
      expect(seedResults.every((result) => result.outcome === 'restored')).toBe(true);
      expect([steps, original]).toEqual([steps, dump(seed.tree, '/ws')]);
    }
    // The undo calls make about 20 writes and as many claims, finishes and releases: each was a kill point.
    expect(steps).toBeGreaterThan(30);
  });

  it('gives back a claim whose restore never started, and finishes one whose restore was done but not recorded', async () => {
    const world = journalWorld();
    world.tree.seedFile('/ws/a.txt', 'old');
    world.tree.seedFile('/ws/b.txt', 'old');
    await world.writeFile.execute({ root: W, path: 'a.txt', content: 'new' });
    await world.writeFile.execute({ root: W, path: 'b.txt', content: 'new' });
    const [b, a] = (await world.journal.list({})).map((change) => change.id);
    expect(await world.journal.claimUndo(a, 's1')).toBe(true);
    expect(await world.journal.claimUndo(b, 's1')).toBe(true);
    world.tree.seedFile('/ws/b.txt', 'old');
    const restarted = world.journal.restarted();
    expect(await recoverUndos(restarted, world.paths, world.fs.snapshots, new Restorer(world.fs))).toEqual({ finished: 1, released: 1 });
    expect((await restarted.get(a))?.undoneBy).toBeUndefined();
    expect((await restarted.get(b))?.undoneBy).toBe('s1');
    expect(world.tree.readText('/ws/a.txt')).toBe('new');
    const { results } = await world.undoVia(restarted, world.fs).execute({ ids: [a] }, 's2');
    expect(results.map((result) => result.outcome)).toEqual(['restored']);
    expect(world.tree.readText('/ws/a.txt')).toBe('old');
  });

  it('gives back a claim it cannot finish (a forced plan was not given), leaving the change undoable', async () => {
    const world = journalWorld();
    world.tree.seedFile('/ws/gone.txt', 'old');
    await world.removeFile.execute({ root: W, path: 'gone.txt' });
    const [id] = (await world.journal.list({})).map((change) => change.id);
    expect(await world.journal.claimUndo(id, 's1')).toBe(true);
    // Someone else's file at the path since: neither state the change knows.
    world.tree.seedFile('/ws/gone.txt', 'theirs');
    const restarted = world.journal.restarted();
    expect(await recoverUndos(restarted, world.paths, world.fs.snapshots, new Restorer(world.fs))).toEqual({ finished: 0, released: 1 });
    expect(world.tree.readText('/ws/gone.txt')).toBe('theirs');
    expect(await restarted.claimUndo(id, 's2')).toBe(true);
  });
});
