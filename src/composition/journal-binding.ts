import type { Container } from 'inversify';
import { AsyncLocalChangeAuthor } from '../adapters/inbound/mcp/call-author.js';
import { DiskChangeJournal } from '../adapters/outbound/journal/disk-change-journal.js';
import type { PrometheusMetrics } from '../adapters/outbound/prometheus-metrics.js';
import type { JournalConfig } from '../config/app-config.js';
import { JournalingFileSystem } from '../domain/changes/journaling-file-system.js';
import { recoverJournal } from '../domain/changes/recovery.js';
import { Snapshots } from '../domain/changes/snapshots.js';
import type { PathPolicy } from '../domain/path-policy.js';
import type { Logger } from '../domain/ports/logger.port.js';
import type { ChangeJournal } from '../domain/ports/change-journal.port.js';
import type { Clock } from '../domain/ports/clock.port.js';
import type { ContentHasher } from '../domain/ports/content-hasher.port.js';
import type { FileSystemPort } from '../domain/ports/file-system.port.js';
import { TOKENS } from './tokens.js';

const HOUR_MS = 3_600_000;

/**
 * The change journal (issue 20): the disk store, and the journaling file system bound as THE file
 * system (behind the notifying one), in front of the real one (bound as InnerFileSystem by the
 * caller). Every use case that writes gets the journaling one without knowing it; swapping the
 * store is one binding.
 */
export function bindJournal(container: Container, journal: JournalConfig): void {
  container.bind(TOKENS.ChangeAuthors).toConstantValue(new AsyncLocalChangeAuthor());
  container
    .bind(TOKENS.ChangeJournal)
    .toResolvedValue((clock: Clock) => new DiskChangeJournal(journal.dir, clock), [TOKENS.Clock])
    .inSingletonScope();
  container
    .bind(TOKENS.Snapshots)
    .toResolvedValue((files: FileSystemPort, hasher: ContentHasher) => new Snapshots(files, hasher, journal.maxFileBytes), [TOKENS.InnerFileSystem, TOKENS.ContentHasher])
    .inSingletonScope();
  container
    .bind(TOKENS.JournalingFileSystem)
    .toResolvedValue(
      (files: FileSystemPort, store: ChangeJournal, snapshots: Snapshots, authors: AsyncLocalChangeAuthor, clock: Clock, metrics: PrometheusMetrics | undefined) =>
        new JournalingFileSystem(
          files,
          store,
          snapshots,
          authors,
          clock,
          { maxBytes: journal.maxBytes, maxFileBytes: journal.maxFileBytes, retentionMs: journal.retentionHours * HOUR_MS },
          metrics,
        ),
      [TOKENS.InnerFileSystem, TOKENS.ChangeJournal, TOKENS.Snapshots, TOKENS.ChangeAuthors, TOKENS.Clock, { serviceIdentifier: TOKENS.Metrics, optional: true }],
    )
    .inSingletonScope();
  container.bind(TOKENS.NotifiedFileSystem).toService(TOKENS.JournalingFileSystem);
}

/**
 * Start-up, before anything is served: opens the journal (its directory checks refuse to start on a
 * bad one) and finishes or drops the records a killed server left half done.
 */
export async function recoverJournalAtStartup(journal: ChangeJournal, paths: PathPolicy, snapshots: Snapshots, logger: Logger): Promise<void> {
  const { committed, dropped } = await recoverJournal(journal, paths, snapshots);
  if (committed + dropped > 0) logger.info('journal recovered', { committed, dropped });
}
