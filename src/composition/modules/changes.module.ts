import { ContainerModule } from 'inversify';
import { listChangesTool } from '../../adapters/inbound/mcp/tools/list-changes.tool.js';
import { undoChangesTool } from '../../adapters/inbound/mcp/tools/undo-changes.tool.js';
import type { PrometheusMetrics } from '../../adapters/outbound/prometheus-metrics.js';
import { ChangeContents } from '../../domain/changes/change-contents.js';
import { ListChanges } from '../../domain/changes/list-changes.js';
import { Restorer } from '../../domain/changes/restorer.js';
import type { Snapshots } from '../../domain/changes/snapshots.js';
import { UndoChanges } from '../../domain/changes/undo-changes.js';
import type { PathPolicy } from '../../domain/path-policy.js';
import type { ChangeJournal } from '../../domain/ports/change-journal.port.js';
import type { FileSystemPort } from '../../domain/ports/file-system.port.js';
import type { PrincipalContext } from '../../domain/principal.js';
import type { Settings } from '../../domain/settings.js';
import type { ToolPolicy } from '../../domain/tool-policy.js';
import { TOKENS } from '../tokens.js';

/** list_changes and undo_changes (issue 20); loaded only while the journal is on. */
export const changesModule = new ContainerModule(({ bind }) => {
  bind(ChangeContents)
    .toResolvedValue(
      (journal: ChangeJournal, paths: PathPolicy, files: FileSystemPort, snapshots: Snapshots) => new ChangeContents(journal, paths, files, snapshots),
      [TOKENS.ChangeJournal, TOKENS.PathPolicy, TOKENS.FileSystem, TOKENS.Snapshots],
    )
    .inSingletonScope();
  bind(ListChanges)
    .toResolvedValue(
      (journal: ChangeJournal, paths: PathPolicy, principals: PrincipalContext, contents: ChangeContents, settings: Settings, snapshots: Snapshots) =>
        new ListChanges(journal, paths, principals, contents, settings, snapshots),
      [TOKENS.ChangeJournal, TOKENS.PathPolicy, TOKENS.PrincipalContext, ChangeContents, TOKENS.Settings, TOKENS.Snapshots],
    )
    .inSingletonScope();
  bind(UndoChanges)
    .toResolvedValue(
      (
        journal: ChangeJournal,
        paths: PathPolicy,
        tools: ToolPolicy,
        principals: PrincipalContext,
        contents: ChangeContents,
        snapshots: Snapshots,
        files: FileSystemPort,
        settings: Settings,
        metrics: PrometheusMetrics | undefined,
      ) => new UndoChanges(journal, paths, tools, principals, contents, snapshots, new Restorer(files), settings, metrics),
      [
        TOKENS.ChangeJournal,
        TOKENS.PathPolicy,
        TOKENS.ToolPolicy,
        TOKENS.PrincipalContext,
        ChangeContents,
        TOKENS.Snapshots,
        TOKENS.FileSystem,
        TOKENS.Settings,
        { serviceIdentifier: TOKENS.Metrics, optional: true },
      ],
    )
    .inSingletonScope();
  bind(TOKENS.ToolDefinition).toResolvedValue((useCase: ListChanges) => listChangesTool(useCase), [ListChanges]);
  bind(TOKENS.ToolDefinition).toResolvedValue((useCase: UndoChanges) => undoChangesTool(useCase), [UndoChanges]);
});
