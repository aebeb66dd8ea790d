import type { Settings } from '../../../../domain/settings.js';
import { humanSize } from '../../../../domain/tools/editor-files.js';
import { CreateFile } from '../../../../domain/tools/create-file.js';
import { defineTool, DESTRUCTIVE, type ToolDefinition } from '../tool-calls/tool-definition.js';
import { toolSpec } from '../tool-calls/tool-spec.js';
import { DRY_RUN_INPUT, DRY_RUN_OUTPUT } from './dry-run-output.js';
import { NAMESPACE_PATH_HELP, namespaceLogFields, WHOLE_FILE_WRITE_INPUT, WHOLE_FILE_WRITE_OUTPUT, namespaceServices } from './namespace-tool-support.js';

export function createFileTool(createFile: CreateFile, settings: Settings): ToolDefinition {
  return defineTool({
    name: 'create_file',
    title: 'Create or overwrite a file',
    description:
      'Write a whole text file atomically, making parents; an existing one keeps its mode and needs a view ' +
      `first (FILE_NOT_VIEWED, FILE_CHANGED_SINCE_VIEW). FILE_TOO_LARGE over max_file_size (${humanSize(settings.maxFileSize)}). ` +
      'Prefer str_replace for small edits. ' +
      NAMESPACE_PATH_HELP,
    inputSchema: { ...WHOLE_FILE_WRITE_INPUT, ...DRY_RUN_INPUT },
    outputSchema: { ...WHOLE_FILE_WRITE_OUTPUT, ...DRY_RUN_OUTPUT },
    stateHandle: 'mints',
    annotations: { ...DESTRUCTIVE, idempotentHint: true },
    logFields: (args) => namespaceLogFields(args.path),
    handle: async (args, context) => {
      const outcome = await createFile.execute({ sessionId: context.sessionId, ...args });
      return { structured: { ...outcome.result }, text: outcome.text };
    },
  });
}

export const createFileSpec = toolSpec({
  name: 'create_file',
  facts: { toolset: 'editor', permission: 'allowlisted', readOnly: false },
  rank: 30,
  useCase: CreateFile,
  create: (services) => new CreateFile(...namespaceServices(services)),
  definition: createFileTool,
});
