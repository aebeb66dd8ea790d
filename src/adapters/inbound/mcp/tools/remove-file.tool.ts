import { RemoveFile } from '../../../../domain/tools/remove-file.js';
import { DESTRUCTIVE, defineTool, type ToolDefinition } from '../tool-calls/tool-definition.js';
import { toolSpec } from '../tool-calls/tool-spec.js';
import { ENTRY_INPUT, REMOVED_OUTPUT, entryLogFields } from './entry-schemas.js';

export function removeFileTool(removeFile: RemoveFile): ToolDefinition {
  return defineTool({
    name: 'remove_file',
    title: 'Remove file',
    description:
      'Delete one file in a root (a symlink itself, not its target). IS_A_DIRECTORY for a directory, NOT_FOUND. ' +
      'Cannot be undone.',
    inputSchema: ENTRY_INPUT,
    outputSchema: REMOVED_OUTPUT,
    annotations: DESTRUCTIVE,
    logFields: entryLogFields,
    handle: async (args) => ({ structured: { ...(await removeFile.execute(args)) } }),
  });
}

export const removeFileSpec = toolSpec({
  name: 'remove_file',
  facts: { toolset: 'root', permission: 'allowlisted', readOnly: false },
  rank: 60,
  useCase: RemoveFile,
  create: (services) => new RemoveFile(services.access, services.files),
  definition: removeFileTool,
});
