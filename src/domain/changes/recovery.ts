import type { PathPolicy } from '../path-policy.js';
import type { ChangeJournal, ChangeRecord } from '../ports/change-journal.port.js';
import { difference, type Snapshots } from './snapshots.js';

/**
 * Start-up (issue 20): a record begun but neither committed nor aborted belongs to a server killed
 * in between. What the root holds now decides: the change's after-state there means it was made
 * (commit); the before-state (or nothing) means it was not (abort, image and all); anything else is
 * committed with what is there now, so an undo sees the conflict and can still be forced.
 */
export async function recoverJournal(journal: ChangeJournal, paths: PathPolicy, snapshots: Snapshots): Promise<{ committed: number; dropped: number }> {
  let committed = 0;
  let dropped = 0;
  for (const record of await journal.pending()) {
    // Another deployment's record, in a journal directory both use: not ours to judge.
    if (!snapshots.isHere(record, paths.roots)) continue;
    const outcome = await judge(record, paths, snapshots).catch(() => 'drop' as const);
    if (outcome === 'drop') {
      await journal.abort(record.id);
      dropped += 1;
    } else {
      await journal.commit(record.id, outcome === 'made' ? undefined : outcome.after);
      committed += 1;
    }
  }
  return { committed, dropped };
}

async function judge(record: ChangeRecord, paths: PathPolicy, snapshots: Snapshots): Promise<'made' | 'drop' | { after: ChangeRecord['after'] }> {
  const follow = record.op === 'create' || record.op === 'modify';
  const at = (root: string, path: string) => snapshots.state(paths.resolve(paths.root(root), path), follow);
  const target = await at(record.toRoot ?? record.root, record.toPath ?? record.path);
  if (record.op === 'move') {
    const origin = await at(record.root, record.path);
    return origin === null && difference(record.after, target) === null ? 'made' : 'drop';
  }
  if (difference(record.after, target) === null) return 'made';
  // Honest limit: a folder removal cut short still shows a folder (difference() compares a
  // folder's kind, not its tree), so it is dropped with the entries it had already removed.
  if (difference(record.before, target) === null || target === null) return 'drop';
  return { after: target };
}
