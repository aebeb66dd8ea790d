import type { Settings } from '../../../../domain/settings.js';
import { humanSize } from '../../../../domain/tools/editor-files.js';
import { FileWrite } from '../../../../domain/tools/file-write.js';
import { defineTool, DESTRUCTIVE, type ToolDefinition } from '../tool-calls/tool-definition.js';
import { toolSpec } from '../tool-calls/tool-spec.js';
import { NAMESPACE_PATH_HELP, namespaceLogFields, WHOLE_FILE_WRITE_INPUT, WHOLE_FILE_WRITE_OUTPUT, namespaceServices } from './namespace-tool-support.js';

export function fileWriteTool(fileWrite: FileWrite, settings: Settings): ToolDefinition {
  return defineTool({
    name: 'file_write',
    title: 'Write a whole file',
    description:
      'Create or overwrite a file atomically (no view needed), making parents; an existing file keeps its mode. ' +
      `FILE_TOO_LARGE over max_file_size (${humanSize(settings.maxFileSize)}). ` +
      NAMESPACE_PATH_HELP,
    inputSchema: WHOLE_FILE_WRITE_INPUT,
    outputSchema: WHOLE_FILE_WRITE_OUTPUT,
    stateHandle: 'mints',
    annotations: { ...DESTRUCTIVE, idempotentHint: true },
    logFields: (args) => namespaceLogFields(args.path),
    handle: async (args, context) => ({
      structured: { ...(await fileWrite.execute({ sessionId: context.sessionId, ...args })) },
    }),
  });
}

export const fileWriteSpec = toolSpec({
  name: 'file_write',
  facts: { toolset: 'repo', permission: 'allowlisted', readOnly: false },
  rank: 20,
  useCase: FileWrite,
  create: (services) => new FileWrite(...namespaceServices(services)),
  definition: fileWriteTool,
});
