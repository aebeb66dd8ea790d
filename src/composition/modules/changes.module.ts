import { ContainerModule } from 'inversify';
import { ChangeContents } from '../../domain/changes/change-contents.js';
import type { Snapshots } from '../../domain/changes/snapshots.js';
import type { PathPolicy } from '../../domain/path-policy.js';
import type { ChangeJournal } from '../../domain/ports/change-journal.port.js';
import type { FileSystemPort } from '../../domain/ports/file-system.port.js';
import { TOKENS } from '../tokens.js';

/** What list_changes and undo_changes (issue 20) share; loaded only while the journal is on. */
export const changesModule = new ContainerModule(({ bind }) => {
  bind(ChangeContents)
    .toResolvedValue(
      (journal: ChangeJournal, paths: PathPolicy, files: FileSystemPort, snapshots: Snapshots) => new ChangeContents(journal, paths, files, snapshots),
      [TOKENS.ChangeJournal, TOKENS.PathPolicy, TOKENS.FileSystem, TOKENS.Snapshots],
    )
    .inSingletonScope();
});
