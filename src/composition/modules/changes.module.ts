import { ContainerModule } from 'inversify';
import { McpAppResources } from '../../adapters/inbound/mcp/protocol/app-resources.js';
import { ChangeContents } from '../../domain/changes/change-contents.js';
import type { Snapshots } from '../../domain/changes/snapshots.js';
import type { PathPolicy } from '../../domain/path-policy.js';
import type { ChangeJournal } from '../../domain/ports/change-journal.port.js';
import type { FileSystemPort } from '../../domain/ports/file-system.port.js';
import { TOKENS } from '../tokens.js';

/** What list_changes, undo_changes and review_changes (issues 20, 30) share, and review_changes' app; loaded only while the journal is on. */
export const changesModule = new ContainerModule(({ bind }) => {
  bind(McpAppResources).toSelf().inSingletonScope();
  bind(ChangeContents)
    .toResolvedValue(
      (journal: ChangeJournal, paths: PathPolicy, files: FileSystemPort, snapshots: Snapshots) => new ChangeContents(journal, paths, files, snapshots),
      [TOKENS.ChangeJournal, TOKENS.PathPolicy, TOKENS.FileSystem, TOKENS.Snapshots],
    )
    .inSingletonScope();
});
