import type { BeforeImage } from '../ports/change-journal.port.js';
import type { CopyBatchEntry, CopyBatchOutcome, FileSystemPort } from '../ports/file-system.port.js';

/** Bytes of before-images one group of a batch holds in memory at once (a tree copy over large files is split). */
const IMAGE_BYTES_AT_ONCE = 16 * 1024 * 1024;
/** Entries planned (stat, source hashed, replaced file read) at once. */
const PLAN_AT_ONCE = 8;

/** What the journaling layer records for one entry of a batch; null: nothing. */
export interface BatchRecords<P extends { readonly image: BeforeImage | null }, B> {
  plan(entry: CopyBatchEntry): Promise<P | null>;
  /** Before a group is begun or placed: throws (DECLINED) when its changes may not be made. */
  confirm?(group: readonly P[]): Promise<void>;
  begin(planned: P): Promise<B>;
  commit(begun: B): Promise<void>;
  abort(begun: B): Promise<void>;
}

/**
 * JournalingFileSystem.copyBatch: the records of a group of entries are all begun at once (the
 * journal makes them durable together, while the adapter writes the files aside) and are durable
 * before anything is placed; committed for what was placed, aborted for the rest. A batch whose
 * before-images would exceed IMAGE_BYTES_AT_ONCE runs as several groups, each synced on its own.
 */
export async function journaledCopyBatch<P extends { readonly image: BeforeImage | null }, B>(
  inner: FileSystemPort,
  records: BatchRecords<P, B>,
  entries: readonly CopyBatchEntry[],
  beforeCommit?: () => Promise<void>,
): Promise<CopyBatchOutcome> {
  const placed: CopyBatchOutcome['placed'][number][] = [];
  let group: { entry: CopyBatchEntry; planned: P | null }[] = [];
  let bytes = 0;
  const flush = async (): Promise<unknown> => {
    try {
      await records.confirm?.(group.flatMap((item) => (item.planned === null ? [] : [item.planned])));
    } catch (error) {
      // Declined: nothing of this group is made; a group before it was, and the batch answers what it placed.
      if (placed.length === 0) throw error;
      return error;
    }
    const failure = await runGroup(inner, records, group, placed, placed.length === 0 ? beforeCommit : undefined);
    group = [];
    bytes = 0;
    return failure;
  };
  for (let start = 0; start < entries.length; start += PLAN_AT_ONCE) {
    const window = entries.slice(start, start + PLAN_AT_ONCE);
    const plans = await Promise.all(window.map((entry) => records.plan(entry)));
    for (const [index, planned] of plans.entries()) {
      const size = imageBytes(planned?.image ?? null);
      if (group.length > 0 && bytes + size > IMAGE_BYTES_AT_ONCE) {
        const failure = await flush();
        if (failure !== undefined) return { placed, failure };
      }
      group.push({ entry: window[index], planned });
      bytes += size;
    }
  }
  const failure = group.length > 0 ? await flush() : undefined;
  return failure === undefined ? { placed } : { placed, failure };
}

/** One group: begun, placed by the adapter, committed; appends to `placed` and answers what stopped it. */
async function runGroup<P extends { readonly image: BeforeImage | null }, B>(
  inner: FileSystemPort,
  records: BatchRecords<P, B>,
  group: readonly { entry: CopyBatchEntry; planned: P | null }[],
  placed: CopyBatchOutcome['placed'][number][],
  beforeCommit?: () => Promise<void>,
): Promise<unknown> {
  const entries = group.map((item) => item.entry);
  const ids = group.map((item) => (item.planned === null ? Promise.resolve(null) : records.begin(item.planned)));
  // Each settles before this returns (below); a rejection is never left unobserved.
  for (const id of ids) id.catch(() => undefined);
  let outcome: CopyBatchOutcome;
  try {
    outcome = await inner.copyBatch(entries, {
      beforeCommit: async () => {
        await beforeCommit?.();
        await Promise.all(ids);
      },
    });
  } catch (error) {
    for (const id of await Promise.allSettled(ids)) if (id.status === 'fulfilled' && id.value !== null) await records.abort(id.value);
    // Nothing of this group was placed; a group before it was: the batch answers what it placed.
    if (placed.length === 0) throw error;
    return error;
  }
  for (const [index, id] of (await Promise.all(ids)).entries()) {
    if (id === null) continue;
    // A folder that was there already (made meanwhile) was not made by this copy: an undo must not remove it.
    if (index < outcome.placed.length && (entries[index].kind === 'file' || outcome.placed[index].created)) await records.commit(id);
    else await records.abort(id);
  }
  placed.push(...outcome.placed);
  return outcome.failure;
}

function imageBytes(image: BeforeImage | null): number {
  return (image?.entries ?? []).reduce((sum, entry) => sum + (entry.content?.byteLength ?? 0), 0);
}
