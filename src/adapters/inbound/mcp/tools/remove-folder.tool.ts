import { RemoveFolder } from '../../../../domain/tools/remove-folder.js';
import { DESTRUCTIVE, defineTool, type ToolDefinition } from '../tool-calls/tool-definition.js';
import { toolSpec } from '../tool-calls/tool-spec.js';
import { ENTRY_INPUT, REMOVED_OUTPUT, entryLogFields } from './entry-schemas.js';

export function removeFolderTool(removeFolder: RemoveFolder): ToolDefinition {
  return defineTool({
    name: 'remove_folder',
    title: 'Remove folder',
    description:
      'Delete a directory recursively (rm -rf; symlinks removed, not followed); not the root. NOT_FOUND, ' +
      'NOT_A_DIRECTORY for a file or symlink. Cannot be undone.',
    inputSchema: ENTRY_INPUT,
    outputSchema: REMOVED_OUTPUT,
    annotations: DESTRUCTIVE,
    logFields: entryLogFields,
    handle: async (args, context) => ({ structured: { ...(await removeFolder.execute(args, context.work)) } }),
  });
}

export const removeFolderSpec = toolSpec({
  name: 'remove_folder',
  facts: { toolset: 'root', permission: 'allowlisted', readOnly: false },
  rank: 90,
  useCase: RemoveFolder,
  create: (services) => new RemoveFolder(services.access, services.files),
  definition: removeFolderTool,
});
