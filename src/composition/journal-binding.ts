import type { Container } from 'inversify';
import { AsyncLocalChangeAuthor } from '../adapters/inbound/mcp/tool-calls/call-author.js';
import type { ElicitingConfirmation } from '../adapters/inbound/mcp/tool-calls/call-confirmation.js';
import { DiskChangeJournal } from '../adapters/outbound/journal/disk-change-journal.js';
import { JournalStoreUnavailable } from '../adapters/outbound/journal/journal-store-unavailable.js';
import type { ServerMetrics } from '../adapters/shared/metrics.port.js';
import type { JournalConfig } from '../config/app-config.js';
import { JournalingFileSystem } from '../domain/changes/journaling-file-system.js';
import { recoverJournal } from '../domain/changes/recovery.js';
import { Restorer } from '../domain/changes/restorer.js';
import { recoverUndos } from '../domain/changes/undo-recovery.js';
import { Snapshots } from '../domain/changes/snapshots.js';
import type { PathPolicy } from '../domain/path-policy.js';
import type { Logger } from '../domain/ports/logger.port.js';
import type { ChangeJournal } from '../domain/ports/change-journal.port.js';
import type { Clock } from '../domain/ports/clock.port.js';
import type { ContentHasher } from '../domain/ports/content-hasher.port.js';
import type { FileSystemPort } from '../domain/ports/file-system.port.js';
import { TOKENS } from './tokens.js';

const HOUR_MS = 3_600_000;
const RECOVERY_RETRY_MS = 5000;

/** Builds the journal's record index in the shared Redis (session_store.url); the caller decides how it is loaded. */
export type RemoteJournalFactory = (url: string, journal: JournalConfig, retentionMs: number, clock: Clock, logger: Logger) => ChangeJournal;

/**
 * The change journal (issue 20): its store, and the journaling file system bound as THE file
 * system (behind the notifying one), in front of the real one (bound as InnerFileSystem by the
 * caller). Every use case that writes gets the journaling one without knowing it; swapping the
 * store is one binding. With a Redis session store (replicas), the records live in that Redis too,
 * so every replica lists and undoes every change; the before-images stay in journal.dir, which the
 * replicas share.
 */
export function bindJournal(container: Container, journal: JournalConfig, redis?: { readonly url: string; readonly store: RemoteJournalFactory }): void {
  container.bind(TOKENS.ChangeAuthors).toConstantValue(new AsyncLocalChangeAuthor());
  const retentionMs = journal.retentionHours * HOUR_MS;
  container
    .bind(TOKENS.ChangeJournal)
    .toResolvedValue(
      (clock: Clock, logger: Logger) => (redis ? redis.store(redis.url, journal, retentionMs, clock, logger) : new DiskChangeJournal(journal.dir, clock, journal.maxBytes)),
      [TOKENS.Clock, TOKENS.Logger],
    )
    .inSingletonScope();
  container
    .bind(TOKENS.Snapshots)
    .toResolvedValue((files: FileSystemPort, hasher: ContentHasher) => new Snapshots(files, hasher, journal.maxFileBytes), [TOKENS.InnerFileSystem, TOKENS.ContentHasher])
    .inSingletonScope();
  container
    .bind(TOKENS.JournalingFileSystem)
    .toResolvedValue(
      (files: FileSystemPort, store: ChangeJournal, snapshots: Snapshots, authors: AsyncLocalChangeAuthor, clock: Clock, metrics: ServerMetrics | undefined, confirmation: ElicitingConfirmation | undefined) =>
        new JournalingFileSystem(
          files,
          store,
          snapshots,
          authors,
          clock,
          { maxBytes: journal.maxBytes, maxFileBytes: journal.maxFileBytes, retentionMs },
          metrics,
          // Asked before what the journal could not undo (issue 30.3); bound by the caller unless confirm.enabled is false.
          confirmation,
        ),
      [TOKENS.InnerFileSystem, TOKENS.ChangeJournal, TOKENS.Snapshots, TOKENS.ChangeAuthors, TOKENS.Clock, { serviceIdentifier: TOKENS.Metrics, optional: true }, { serviceIdentifier: TOKENS.Confirmation, optional: true }],
    )
    .inSingletonScope();
  container.bind(TOKENS.NotifiedFileSystem).toService(TOKENS.JournalingFileSystem);
}

/**
 * Start-up, before anything is served: opens the journal (its directory checks refuse to start on a
 * bad one), finishes or drops the records a killed server left half done, then finishes or releases
 * the undos it left in flight (their restoring writes go through `files`, journaled like any).
 */
export async function recoverJournalAtStartup(journal: ChangeJournal, paths: PathPolicy, snapshots: Snapshots, files: FileSystemPort, logger: Logger, retryMs = RECOVERY_RETRY_MS): Promise<void> {
  const recover = async () => ({ ...(await recoverJournal(journal, paths, snapshots)), ...(await recoverUndos(journal, paths, snapshots, new Restorer(files))) });
  await recoverOrDefer(recover, logger, retryMs, false);
}

/**
 * A Redis store that is down at start-up defers recovery rather than the start: the server serves on
 * (every request gets 503 until the session store is back, as without the journal) and retries.
 * Safe while serving: pending() returns only records of servers that are gone, never this one's.
 */
type Recovered = { committed: number; dropped: number; finished: number; released: number };

async function recoverOrDefer(recover: () => Promise<Recovered>, logger: Logger, retryMs: number, deferred: boolean): Promise<void> {
  try {
    const { committed, dropped, finished, released } = await recover();
    if (committed + dropped + finished + released > 0 || deferred) logger.info('journal recovered', { committed, dropped, undosFinished: finished, undosReleased: released });
  } catch (error) {
    if (!(error instanceof JournalStoreUnavailable)) throw error;
    if (!deferred) logger.warn('journal recovery deferred until its store is reachable', { error: error.reason });
    setTimeout(() => void recoverOrDefer(recover, logger, retryMs, true).catch((failed: unknown) => logger.error('journal recovery failed', { error: String(failed) })), retryMs).unref();
  }
}
