import type { Settings } from '../../../../domain/settings.js';
import { humanSize } from '../../../../domain/tools/editor-files.js';
import type { CreateFile } from '../../../../domain/tools/create-file.js';
import { defineTool, DESTRUCTIVE, type ToolDefinition } from '../tool-definition.js';
import { NAMESPACE_PATH_HELP, namespaceLogFields, WHOLE_FILE_WRITE_INPUT, WHOLE_FILE_WRITE_OUTPUT } from './namespace-tool-support.js';

export function createFileTool(createFile: CreateFile, settings: Settings): ToolDefinition {
  return defineTool({
    name: 'create_file',
    title: 'Create or overwrite a file',
    description:
      'Write a whole text file. Missing parent directories are created (0755); a new file gets mode 0644; an ' +
      'existing file is replaced atomically and keeps its mode. Overwriting an existing file needs a view of it in ' +
      'this session first (FILE_NOT_VIEWED otherwise; FILE_CHANGED_SINCE_VIEW if it changed on disk since); a new ' +
      `file needs none. Content over max_file_size (${humanSize(settings.maxFileSize)}, counted in UTF-8 bytes) is refused. ` +
      'Prefer str_replace for small edits. ' +
      NAMESPACE_PATH_HELP,
    inputSchema: WHOLE_FILE_WRITE_INPUT,
    outputSchema: WHOLE_FILE_WRITE_OUTPUT,
    annotations: { ...DESTRUCTIVE, idempotentHint: true },
    logFields: (args) => namespaceLogFields(args.path),
    handle: async (args, context) => {
      const outcome = await createFile.execute({ sessionId: context.sessionId, ...args });
      return { structured: { ...outcome.result }, text: outcome.text };
    },
  });
}
