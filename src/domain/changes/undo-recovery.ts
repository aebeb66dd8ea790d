import type { PathPolicy } from '../path-policy.js';
import type { ChangeJournal, ChangeRecord, UndoInFlight } from '../ports/change-journal.port.js';
import type { RootPath } from '../roots.js';
import type { Restorer } from './restorer.js';
import { difference, type Snapshots } from './snapshots.js';

/** How far an undo cut short by a crash got: nothing yet, part of the way, or all of it. */
type Progress = 'none' | 'partial' | 'done';

/**
 * Start-up (issue 27): an undo claimed by a server killed before it finished or released it. What
 * the root holds decides: the change's after-state still there means the restore never started
 * (the claim is released: the change is undoable again); its before-state means it completed (the
 * record now says undone); anything between (a tree partly restored, a file removed to be created
 * with its old mode, a move renamed back without what it replaced) is restored the rest of the way
 * with the claim's plan, then marked undone. A restore that cannot finish releases the claim, so
 * the change is never listed as undone unless it is.
 */
export async function recoverUndos(journal: ChangeJournal, paths: PathPolicy, snapshots: Snapshots, restorer: Restorer): Promise<{ finished: number; released: number }> {
  let finished = 0;
  let released = 0;
  for (const claim of await journal.undosInFlight()) {
    const record = await journal.get(claim.id);
    // Another deployment's change, in a journal directory both use: not ours to judge.
    if (record === null || !snapshots.isHere(record, paths.roots)) continue;
    if (!(await journal.adoptUndo(claim.id))) continue;
    if (await settle(journal, record, claim, paths, snapshots, restorer)) finished += 1;
    else released += 1;
  }
  return { finished, released };
}

/** Finishes or releases one undo in flight; true when it is finished (the change is restored). */
async function settle(journal: ChangeJournal, record: ChangeRecord, claim: UndoInFlight, paths: PathPolicy, snapshots: Snapshots, restorer: Restorer): Promise<boolean> {
  try {
    const source = paths.resolve(paths.root(record.root), record.path);
    const target = record.toPath === undefined ? source : paths.resolve(paths.root(record.toRoot ?? record.root), record.toPath);
    const progress = await progressOf(record, source, target, snapshots);
    if (progress === 'partial') await restorer.resume(record, await journal.image(record.id), source, target, claim.force);
    if (progress !== 'none') {
      await journal.finishUndo(record.id);
      return true;
    }
  } catch {
    // A root gone, a conflict the plan does not allow to override: the change stays undoable.
  }
  await journal.releaseUndo(record.id);
  return false;
}

async function progressOf(record: ChangeRecord, source: RootPath, target: RootPath, snapshots: Snapshots): Promise<Progress> {
  const follow = record.op === 'create' || record.op === 'modify';
  const now = await snapshots.state(target, follow);
  switch (record.op) {
    case 'rmdir':
      // Folders first, then files: any folder there is the restore begun (the removal left none).
      // Restoring again creates only what is missing, so a tree comes back whole or not at all.
      return now === null ? 'none' : 'partial';
    case 'move': {
      const origin = await snapshots.state(source);
      // Not renamed back (a forced undo may have cleared the origin first): the move still stands.
      if (origin === null || difference(record.after, origin) !== null) return 'none';
      return now === null ? 'partial' : 'done';
    }
    default:
      if (difference(record.before, now) === null) return 'done';
      if (difference(record.after, now) === null) return 'none';
      return 'partial';
  }
}
