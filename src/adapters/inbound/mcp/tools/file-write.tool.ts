import { z } from 'zod';
import type { Settings } from '../../../../domain/settings.js';
import { humanSize } from '../../../../domain/tools/editor-files.js';
import type { FileWrite } from '../../../../domain/tools/file-write.js';
import { defineTool, DESTRUCTIVE, type ToolDefinition } from '../tool-definition.js';
import { NAMESPACE_PATH_HELP, namespaceLogFields } from './namespace-tool-support.js';

export function fileWriteTool(fileWrite: FileWrite, settings: Settings): ToolDefinition {
  return defineTool({
    name: 'file_write',
    title: 'Write a whole file',
    description:
      'Create a file or overwrite an existing one with the given content. Parent directories are created as needed ' +
      '(0755); new files get mode 0644, existing files keep theirs; the write is atomic. Content over max_file_size ' +
      `(${humanSize(settings.maxFileSize)}, counted in UTF-8 bytes) is refused. ` +
      NAMESPACE_PATH_HELP,
    inputSchema: {
      path: z.string().describe('File to write: /<root>/<path>, or relative to the working directory.'),
      content: z.string().describe('The complete new content of the file.'),
    },
    outputSchema: {
      path: z.string().describe('Namespace path of the written file.'),
      size: z.number().int().describe('Bytes written.'),
      created: z.boolean().describe('True for a new file, false when an existing file was overwritten.'),
    },
    annotations: { ...DESTRUCTIVE, idempotentHint: true },
    logFields: (args) => namespaceLogFields(args.path),
    handle: async (args, context) => ({
      structured: { ...(await fileWrite.execute({ sessionId: context.sessionId, ...args })) },
    }),
  });
}
