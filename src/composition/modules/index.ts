import type { ContainerModule } from 'inversify';
import { editorToolsModule } from './editor-tools.module.js';
import { fileToolsModule } from './file-tools.module.js';
import { resourcesModule } from './resources.module.js';
import { searchToolsModule } from './search-tools.module.js';

/**
 * Every tool family's container module. A family module binds its use cases with
 * toResolvedValue (the domain carries no decorators) and its tool definitions to
 * TOKENS.ToolDefinition. Adding a family = one line here.
 */
export const toolFamilyModules: readonly ContainerModule[] = [
  editorToolsModule,
  fileToolsModule,
  searchToolsModule,
  resourcesModule,
];
