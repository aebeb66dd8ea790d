import { ContainerModule, type ResolutionContext, type ServiceIdentifier } from 'inversify';
import type { ToolServices, ToolSpec } from '../../adapters/inbound/mcp/tool-calls/tool-spec.js';
import { definitionOf } from '../../adapters/inbound/mcp/tool-calls/tool-registry.js';
import { TOOL_SPECS } from '../../adapters/inbound/mcp/tool-calls/tool-specs.js';
import { ChangeContents } from '../../domain/changes/change-contents.js';
import { EditSessions } from '../../domain/edit-session.js';
import { Namespace } from '../../domain/namespace.js';
import { IgnoreRuleCache } from '../../domain/search/ignore-rule-cache.js';
import { SearchIndexes } from '../../domain/search/search-indexes.js';
import { TreeSnapshots } from '../../domain/search/tree-snapshots.js';
import type { Settings } from '../../domain/settings.js';
import type { Toolset } from '../../domain/tool-facts.js';
import { ReadFile } from '../../domain/tools/read-file.js';
import { RootAccess } from '../../domain/tools/root-access.js';
import { TOKENS } from '../tokens.js';

const TOOL_SERVICES: ServiceIdentifier<ToolServices> = Symbol.for('ToolServices');

/**
 * The services a use case factory reads, each resolved on first read: a getter per service, so
 * a tool of a toolset that is not served never asks for the namespace or the journal.
 */
function toolServices(context: ResolutionContext): ToolServices {
  return {
    get files() { return context.get(TOKENS.FileSystem); },
    get settings() { return context.get(TOKENS.Settings); },
    get paths() { return context.get(TOKENS.PathPolicy); },
    get access() { return context.get(RootAccess); },
    get toolPolicy() { return context.get(TOKENS.ToolPolicy); },
    get clock() { return context.get(TOKENS.Clock); },
    get regex() { return context.get(TOKENS.RegexEngine); },
    get hasher() { return context.get(TOKENS.ContentHasher); },
    get ignoreCache() { return context.get(IgnoreRuleCache); },
    get searchIndexes() { return context.get(SearchIndexes); },
    get treeSnapshots() { return context.get(TreeSnapshots); },
    get namespace() { return context.get(Namespace); },
    get sessions() { return context.get(EditSessions); },
    get readFile() { return context.get(ReadFile); },
    get journal() { return context.get(TOKENS.ChangeJournal); },
    get snapshots() { return context.get(TOKENS.Snapshots); },
    get changeContents() { return context.get(ChangeContents); },
    get principals() { return context.get(TOKENS.PrincipalContext); },
    get journalObserver() { return context.get(TOKENS.Metrics, { optional: true }); },
  };
}

/**
 * The one loop that registers every tool of the served toolsets: its use case (a singleton under
 * its class, so read_files and the resources share read_file's) and its definition.
 */
export function toolSpecsModule(toolsets: readonly Toolset[], specs: readonly ToolSpec[] = TOOL_SPECS): ContainerModule {
  return new ContainerModule(({ bind }) => {
    bind(TOOL_SERVICES).toDynamicValue(toolServices).inSingletonScope();
    for (const spec of specs) {
      if (!toolsets.includes(spec.facts.toolset)) continue;
      const useCase = spec.useCase as ServiceIdentifier<unknown>;
      bind(useCase).toResolvedValue((services: ToolServices) => spec.create(services), [TOOL_SERVICES]).inSingletonScope();
      bind(TOKENS.ToolDefinition).toResolvedValue((built: unknown, settings: Settings) => definitionOf(spec, built, settings), [useCase, TOKENS.Settings]);
    }
  });
}
