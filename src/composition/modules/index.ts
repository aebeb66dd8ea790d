import type { ContainerModule } from 'inversify';
import { TOOLSETS, type Toolset } from '../../domain/tool-facts.js';
import { changesModule } from './changes.module.js';
import { namespaceModule } from './namespace.module.js';
import { resourcesModule } from './resources.module.js';
import { toolSpecsModule } from './tool-specs.module.js';
import type { ToolSpec } from '../../adapters/inbound/mcp/tool-calls/tool-spec.js';

/**
 * The container modules of each toolset besides its tools, which toolSpecsModule registers from
 * their specs (the domain carries no decorators: use cases are bound with toResolvedValue). A tool
 * whose toolset is not served is never listed, and a call to it is refused as an unknown tool.
 * Resources read through read_file, so they follow root.
 */
const TOOLSET_MODULES: Record<Toolset, readonly ContainerModule[]> = {
  root: [resourcesModule],
  editor: [],
  repo: [],
  changes: [changesModule],
};

/** The modules to load for the enabled toolsets (all of them by default). */
export function toolFamilyModules(toolsets: readonly Toolset[] = TOOLSETS, specs?: readonly ToolSpec[]): ContainerModule[] {
  const modules = [toolSpecsModule(toolsets, specs), ...toolsets.flatMap((toolset) => TOOLSET_MODULES[toolset])];
  if (toolsets.includes('editor') || toolsets.includes('repo')) modules.unshift(namespaceModule);
  return modules;
}
