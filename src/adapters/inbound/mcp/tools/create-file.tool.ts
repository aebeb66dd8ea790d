import { z } from 'zod';
import type { Settings } from '../../../../domain/settings.js';
import { humanSize } from '../../../../domain/tools/editor-files.js';
import type { CreateFile } from '../../../../domain/tools/create-file.js';
import { defineTool, DESTRUCTIVE, type ToolDefinition } from '../tool-definition.js';
import { NAMESPACE_PATH_HELP, namespaceLogFields } from './namespace-tool-support.js';

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
    handle: async (args, context) => {
      const outcome = await createFile.execute({ sessionId: context.sessionId, ...args });
      return { structured: { ...outcome.result }, text: outcome.text };
    },
  });
}
