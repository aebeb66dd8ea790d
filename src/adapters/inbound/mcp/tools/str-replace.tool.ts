import { z } from 'zod';
import type { StrReplace } from '../../../../domain/tools/str-replace.js';
import { defineTool, type ToolDefinition, DESTRUCTIVE } from '../tool-definition.js';
import { NAMESPACE_PATH_HELP, namespaceLogFields } from './namespace-tool-support.js';

export function strReplaceTool(strReplace: StrReplace): ToolDefinition {
  return defineTool({
    name: 'str_replace',
    title: 'Replace text in a file',
    description:
      'Replace old_str (exact text from view, no line numbers) in a text file; it must occur once unless replace_all. ' +
      'Literal, atomic; line endings and mode kept. Errors: FILE_NOT_VIEWED (view it first), FILE_CHANGED_SINCE_VIEW, ' +
      'NO_MATCH, MULTIPLE_MATCHES. ' +
      NAMESPACE_PATH_HELP,
    inputSchema: {
      path: z.string().describe('File to edit.'),
      old_str: z.string().describe('Exact text to replace (non-empty).'),
      new_str: z.string().optional().describe('Replacement; omit to delete old_str.'),
      replace_all: z.boolean().optional().describe('Replace every occurrence (default false).'),
    },
    outputSchema: {
      path: z.string().describe('Namespace path of the edited file.'),
      replacements: z.number().int().describe('Occurrences replaced.'),
      size: z.number().int().describe('File size in bytes after the edit.'),
    },
    annotations: DESTRUCTIVE,
    logFields: (args) => namespaceLogFields(args.path),
    handle: async (args, context) => {
      const outcome = await strReplace.execute({ sessionId: context.sessionId, ...args });
      return { structured: { ...outcome.result }, text: outcome.text };
    },
  });
}
