import type { Settings } from '../../../../domain/settings.js';
import { humanSize } from '../../../../domain/tools/editor-files.js';
import type { FileWrite } from '../../../../domain/tools/file-write.js';
import { defineTool, DESTRUCTIVE, type ToolDefinition } from '../tool-definition.js';
import { NAMESPACE_PATH_HELP, namespaceLogFields, WHOLE_FILE_WRITE_INPUT, WHOLE_FILE_WRITE_OUTPUT } from './namespace-tool-support.js';

export function fileWriteTool(fileWrite: FileWrite, settings: Settings): ToolDefinition {
  return defineTool({
    name: 'file_write',
    title: 'Write a whole file',
    description:
      'Create a file or overwrite an existing one with the given content. Parent directories are created as needed ' +
      '(0755); new files get mode 0644, existing files keep theirs; the write is atomic. Content over max_file_size ' +
      `(${humanSize(settings.maxFileSize)}, counted in UTF-8 bytes) is refused. ` +
      NAMESPACE_PATH_HELP,
    inputSchema: WHOLE_FILE_WRITE_INPUT,
    outputSchema: WHOLE_FILE_WRITE_OUTPUT,
    annotations: { ...DESTRUCTIVE, idempotentHint: true },
    logFields: (args) => namespaceLogFields(args.path),
    handle: async (args, context) => ({
      structured: { ...(await fileWrite.execute({ sessionId: context.sessionId, ...args })) },
    }),
  });
}
