import { z } from 'zod';
import type { StrReplace } from '../../../../domain/tools/str-replace.js';
import { defineTool, type ToolDefinition, WRITES } from '../tool-definition.js';
import { NAMESPACE_PATH_HELP, namespaceLogFields } from './namespace-tool-support.js';

export function strReplaceTool(strReplace: StrReplace): ToolDefinition {
  return defineTool({
    name: 'str_replace',
    title: 'Replace text in a file',
    description:
      'Edit a text file by replacing an exact string. old_str must occur exactly once (copy it from `view` ' +
      'output without the line-number prefix, whitespace included, and add surrounding lines until it is unique), ' +
      'or set replace_all to replace every occurrence. Omit new_str to delete old_str. Text is literal (no regex, ' +
      'no $-patterns); the file keeps its line endings (CRLF files stay CRLF) and permissions; the write is atomic. ' +
      'Returns the number of replacements and numbered lines around the change. The file must have been viewed in ' +
      'this session (FILE_NOT_VIEWED otherwise), and if it changed on disk since, view it again ' +
      '(FILE_CHANGED_SINCE_VIEW). ' +
      NAMESPACE_PATH_HELP,
    inputSchema: {
      path: z.string().describe('File to edit: /<root>/<path>, or relative to the working directory.'),
      old_str: z.string().describe('Exact text to replace (non-empty); must be unique in the file unless replace_all is true.'),
      new_str: z.string().optional().describe('Replacement text; omit or leave empty to delete old_str.'),
      replace_all: z.boolean().optional().describe('Replace every occurrence instead of requiring exactly one (default false).'),
    },
    outputSchema: {
      path: z.string().describe('Namespace path of the edited file.'),
      replacements: z.number().int().describe('Occurrences replaced.'),
      size: z.number().int().describe('File size in bytes after the edit.'),
    },
    annotations: WRITES,
    logFields: (args) => namespaceLogFields(args.path),
    handle: async (args, context) => {
      const outcome = await strReplace.execute({ sessionId: context.sessionId, ...args });
      return { structured: { ...outcome.result }, text: outcome.text };
    },
  });
}
