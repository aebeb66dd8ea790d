import { z } from 'zod';
import { MAX_EDITS } from '../../../../domain/tools/str-replace-edits.js';
import { StrReplace } from '../../../../domain/tools/str-replace.js';
import { DRY_RUN_INPUT, DRY_RUN_OUTPUT } from './dry-run-output.js';
import { defineTool, type ToolDefinition, DESTRUCTIVE } from '../tool-calls/tool-definition.js';
import { toolSpec } from '../tool-calls/tool-spec.js';
import { NAMESPACE_PATH_HELP, namespaceLogFields, namespaceServices } from './namespace-tool-support.js';

export function strReplaceTool(strReplace: StrReplace): ToolDefinition {
  return defineTool({
    name: 'str_replace',
    title: 'Replace text in a file',
    description:
      'Replace old_str (exact text from view, no line numbers) in a text file, once unless replace_all; or edits[] ' +
      'in order, all or none. Not found exactly: unique whole lines equal but for surrounding whitespace, ' +
      'new_str re-indented. Atomic; line endings and mode kept. FILE_NOT_VIEWED (view first), ' +
      'FILE_CHANGED_SINCE_VIEW, NO_MATCH (shows similar lines), MULTIPLE_MATCHES. ' +
      NAMESPACE_PATH_HELP,
    inputSchema: {
      path: z.string(),
      old_str: z.string().optional().describe('Exact text to replace (non-empty); or use edits.'),
      new_str: z.string().optional().describe('Replacement; omit to delete old_str.'),
      replace_all: z.boolean().optional(),
      edits: z
        .array(z.object({ old_str: z.string(), new_str: z.string().optional(), replace_all: z.boolean().optional() }).strict())
        .min(1)
        .max(MAX_EDITS)
        .optional()
        .describe(`1-${MAX_EDITS}, instead of old_str.`),
      ...DRY_RUN_INPUT,
    },
    outputSchema: {
      path: z.string().describe('Namespace path of the edited file.'),
      replacements: z.number().int().describe('Occurrences replaced.'),
      replacements_per_edit: z.array(z.number().int()).optional(),
      size: z.number().int().describe('File size in bytes after the edit.'),
      match: z.enum(['exact', 'whitespace_tolerant']),
      ...DRY_RUN_OUTPUT,
    },
    stateHandle: 'mints',
    annotations: DESTRUCTIVE,
    logFields: (args) => namespaceLogFields(args.path),
    handle: async (args, context) => {
      const outcome = await strReplace.execute({ sessionId: context.sessionId, ...args });
      return { structured: { ...outcome.result }, text: outcome.text };
    },
  });
}

export const strReplaceSpec = toolSpec({
  name: 'str_replace',
  facts: { toolset: 'editor', permission: 'allowlisted', readOnly: false },
  rank: 20,
  useCase: StrReplace,
  create: (services) => new StrReplace(...namespaceServices(services)),
  definition: strReplaceTool,
});
