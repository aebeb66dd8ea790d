import { createHash } from 'node:crypto';
import { lstatSync } from 'node:fs';
import { join } from 'node:path';
import { isDeepStrictEqual } from 'node:util';
import type { ChangeJournal } from '../../src/domain/ports/change-journal.port.js';
import { normalise, type ChangeOrdinals, type Snapshot } from './invariants.js';
import { JOURNAL_FILE, SINCE_THE_START } from './journal.js';

/**
 * What must hold of the change journal (issue 20) after every call, beyond the file tools' invariants:
 * the two worlds' journals hold the same changes, nothing of the disk journal is ever in the root, and
 * undoing everything since the start gives back the seeded tree (when every change came back).
 */

/** A journal as both worlds must agree on it: every record (ids by ordinal, times marked) and a digest of its before-image. */
export async function journalContents(store: ChangeJournal, ids: ChangeOrdinals): Promise<unknown[]> {
  const records = (await store.list({})).reverse();
  return Promise.all(
    records.map(async (record) => {
      const image = await store.image(record.id);
      const digest = image === null ? null : createHash('sha256').update(JSON.stringify(image.entries.map((entry) => ({ ...entry, content: entry.content && Buffer.from(entry.content).toString('base64') })))).digest('hex').slice(0, 16);
      return normalise({ ...record, image: digest }, ids);
    }),
  );
}

/** The first record where two journals differ, for a failure report; null when they agree. */
export function journalDifference(model: unknown[], node: unknown[]): string | null {
  if (isDeepStrictEqual(model, node)) return null;
  for (let at = 0; at < Math.max(model.length, node.length); at += 1) {
    if (!isDeepStrictEqual(model[at], node[at])) return `change ${at}:\n  model: ${JSON.stringify(model[at] ?? null)}\n  node:  ${JSON.stringify(node[at] ?? null)}`;
  }
  return 'they differ';
}

/** Entries of the root (a snapshot) named like the disk journal's own files: none may ever be there. */
export function journalLitter(root: Snapshot): string[] {
  return [...root.keys()].filter((path) => JOURNAL_FILE.test(path.slice(path.lastIndexOf('/') + 1)));
}

/**
 * Whether this call undid every change since the start and every one of them came back (`restored`):
 * then, and only then, the root must equal the seeded tree. Any other outcome means something was
 * left as it is, and rightly so: `not_undoable` (a link or FIFO removed, a before-image larger than
 * max_file_bytes or evicted at max_bytes, a change already undone by an earlier undo, whose own
 * undo has just been undone), `restored` with a reason (a folder back without the FIFO or link it held),
 * or `conflict` even with force (a folder where a file must go back).
 */
export function undidEverything(tool: string, args: Record<string, unknown>, settled: PromiseSettledResult<unknown>): boolean {
  // As the operation runs it: the selector's own fields win (operations.ts `flatten`).
  const call = { ...args, ...(args.selector as Record<string, unknown> | undefined) };
  if (tool !== 'undo_changes' || call.since_id !== SINCE_THE_START || call.force !== true || call.dry_run === true || call.ids !== undefined) return false;
  if (call.root !== undefined && call.root !== 'workspace') return false;
  if (settled.status !== 'fulfilled') return false;
  const { results } = settled.value as { results: { outcome: string; reason?: string }[] };
  // A `restored` with a reason came back without something (a FIFO or link in a removed folder, a mode it could not set).
  return results.every((result) => result.outcome === 'restored' && result.reason === undefined);
}

