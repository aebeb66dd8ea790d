import { existsSync, mkdtempSync, realpathSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { AsyncLocalChangeAuthor } from '../../src/adapters/inbound/mcp/tool-calls/call-author.js';
import { DiskChangeJournal } from '../../src/adapters/outbound/journal/disk-change-journal.js';
import { InMemoryChangeJournal } from '../../src/adapters/outbound/journal/in-memory-change-journal.js';
import { NodeContentHasher } from '../../src/adapters/outbound/node-content-hasher.js';
import { JournalingFileSystem } from '../../src/domain/changes/journaling-file-system.js';
import type { JournalLimits } from '../../src/domain/changes/journal-bounds.js';
import { Snapshots } from '../../src/domain/changes/snapshots.js';
import type { ChangeJournal } from '../../src/domain/ports/change-journal.port.js';
import type { Clock } from '../../src/domain/ports/clock.port.js';
import type { FileSystemPort } from '../../src/domain/ports/file-system.port.js';

/**
 * The change journal (issue 20) in the fuzz worlds, wired as src/composition/journal-binding.ts
 * wires it: a JournalingFileSystem in front of the world's file system, Snapshots reading the inner
 * one, the production author context, and a store: DiskChangeJournal for the Node world (in a
 * private temp dir of its own, outside the root and outside the canary tree), InMemoryChangeJournal
 * for the model. Both read the same clock and the same limits.
 */
export interface JournalSetup {
  readonly store: ChangeJournal;
  readonly fs: JournalingFileSystem;
  readonly snapshots: Snapshots;
  readonly authors: AsyncLocalChangeAuthor;
}

/**
 * Limits drawn per run, the same in both worlds. Small ones most of the time, so that "larger than the
 * journal keeps" (generated files run from 0 bytes to ~20 KB, most under 100) and eviction at max_bytes both happen
 * within a 20-operation run; the production defaults now and then.
 */
export const journalLimitsArb: fc.Arbitrary<JournalLimits> = fc.record({
  maxFileBytes: fc.constantFrom(16, 256, 1024, 64 * 1024),
  maxBytes: fc.constantFrom(64, 200, 4096, 1024 * 1024),
  retentionMs: fc.constant(168 * 3_600_000),
});

export function journalOn(files: FileSystemPort, store: ChangeJournal, clock: Clock, limits: JournalLimits): JournalSetup {
  const snapshots = new Snapshots(files, new NodeContentHasher(), limits.maxFileBytes);
  const authors = new AsyncLocalChangeAuthor();
  return { store, snapshots, authors, fs: new JournalingFileSystem(files, store, snapshots, authors, clock, limits) };
}

export function modelJournal(clock: Clock): InMemoryChangeJournal {
  return new InMemoryChangeJournal(clock);
}

/**
 * Where the fuzz worlds go (each run's root and canary tree, the FIFO pool, the Node world's journal
 * directories): tmpfs when there is one. The Node adapter fsyncs every temp file and its directory, the
 * disk store every record, image, claim and directory; on this machine's shared disk that doubled the
 * fuzzer's time (100 runs of seed 5: 20.6 s with the journal in /tmp, 10.5 s in /dev/shm, 8.1 s without
 * a journal), and one recursive copy of the 520-file `big` directory (seed 777, run 631: ~1,600 fsyncs)
 * stalled a run for a minute while the disk was busy. The fuzzer checks what the adapters do, not that
 * it survives a power cut (the crash tests do that).
 */
export const SCRATCH_PARENT = existsSync('/dev/shm') ? '/dev/shm' : tmpdir();

/** A journal directory of the Node world: mkdtemp makes it 0700 and ours, as the store's checks require. */
export function makeJournalDir(): string {
  return realpathSync(mkdtempSync(join(SCRATCH_PARENT, 'mcp-fuzz-journal-')));
}

export function diskJournal(dir: string, clock: Clock): DiskChangeJournal {
  return new ImagesBoundedDiskJournal(dir, clock);
}

/**
 * The disk store bounded as the model's store is: by its before-images alone. The model keeps no
 * files, so its records and log cost nothing against max_bytes, while the disk store counts its whole
 * directory (issue 27); compared as they are, the two would evict differently by design. The fuzzer
 * compares the file system adapters; the disk store's own bound has its tests
 * (test/e2e/change-journal-size.test.ts, the disk store's adapter test).
 */
class ImagesBoundedDiskJournal extends DiskChangeJournal {
  override async storedBytes(): Promise<number> {
    return (await this.usage()).bytes;
  }
}

export function removeJournalDir(dir: string): void {
  rmSync(dir, { recursive: true, force: true });
}

/** Every id this journal holds, oldest first: the ordinal positions `normalise` maps ids to. */
export async function journalIds(store: ChangeJournal): Promise<string[]> {
  return (await store.list({})).map((record) => record.id).reverse();
}

/**
 * Names the disk journal gives its files (records/<id>.json|.img|.done, their temps, claims/<id>,
 * the begin log's log/<instance>-<n>.log): none may ever be found inside the root.
 */
export const JOURNAL_FILE = /^(\.?[0-9a-z]{17}(\.(json|img|done|img\.tmp|img\.replay\.tmp|tmp)|\..*\.stale)?|\.?[0-9a-f]{12}-[0-9]+\.log(\.tmp)?|records|claims|log)$/;

/** A well-formed id older than every change: `since_id` of it selects every change since the start. */
export const SINCE_THE_START = '00000000000000000';
