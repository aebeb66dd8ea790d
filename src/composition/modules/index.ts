import type { ContainerModule } from 'inversify';
import { TOOLSETS, type Toolset } from '../../domain/tool-names.js';
import { changesModule } from './changes.module.js';
import { editorToolsModule } from './editor-tools.module.js';
import { fileToolsModule } from './file-tools.module.js';
import { namespaceModule } from './namespace.module.js';
import { repoToolsModule } from './repo-tools.module.js';
import { resourcesModule } from './resources.module.js';
import { searchToolsModule } from './search-tools.module.js';

/**
 * The container modules of each toolset. A family module binds its use cases with
 * toResolvedValue (the domain carries no decorators) and its tool definitions to
 * TOKENS.ToolDefinition. A tool whose module is not loaded is never listed, and a call
 * to it is refused as an unknown tool. Resources read through read_file, so they follow root.
 */
const TOOLSET_MODULES: Record<Toolset, readonly ContainerModule[]> = {
  root: [fileToolsModule, searchToolsModule, resourcesModule],
  editor: [editorToolsModule],
  repo: [repoToolsModule],
  changes: [changesModule],
};

/** The modules to load for the enabled toolsets (all of them by default). */
export function toolFamilyModules(toolsets: readonly Toolset[] = TOOLSETS): ContainerModule[] {
  const modules = toolsets.flatMap((toolset) => TOOLSET_MODULES[toolset]);
  if (toolsets.includes('editor') || toolsets.includes('repo')) modules.unshift(namespaceModule);
  return modules;
}
