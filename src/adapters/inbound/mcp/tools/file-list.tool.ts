import { z } from 'zod';
import { MAX_PATTERN_CHARS } from '../../../../domain/search/pattern-length.js';
import { FileList } from '../../../../domain/tools/file-list.js';
import { defineTool, READ_ONLY, type ToolDefinition } from '../tool-calls/tool-definition.js';
import { toolSpec } from '../tool-calls/tool-spec.js';
import type { Settings } from '../../../../domain/settings.js';
import { NAMESPACE_PATH_HELP, namespaceLogFields } from './namespace-tool-support.js';
import { ignoreField } from './search-limits.schema.js';

export function fileListTool(fileList: FileList, settings: Settings): ToolDefinition {
  return defineTool({
    name: 'file_list',
    title: 'List a directory',
    description:
      'List one directory (not recursive), by name; `/`: the roots. `pattern`: glob on names. ' +
      'Symlinks: `target` = namespace path, [outside the root] or [link loop]. ' +
      'NOT_A_DIRECTORY for a file. ' +
      NAMESPACE_PATH_HELP,
    inputSchema: {
      path: z.string().optional().describe('Directory (default: the cwd).'),
      pattern: z
        .string()
        .max(MAX_PATTERN_CHARS)
        .optional()
        .describe(`Glob on entry names.`),
      ignore: ignoreField(settings.search),
    },
    outputSchema: {
      path: z.string().describe('Namespace path of the listed directory.'),
      entries: z.array(
        z.object({
          name: z.string(),
          path: z.string().describe('Namespace path of the entry.'),
          type: z.enum(['file', 'directory', 'symlink', 'other']),
          size: z.number().int().describe('Bytes.'),
          modified_at: z.string().describe('ISO 8601.'),
          target: z.string().optional().describe('Symlink target: a namespace path when it lies inside a root, otherwise the marker [outside the root] or [link loop] (host paths are never shown).'),
        }),
      ),
      count: z.number().int(),
      ignored: z.number().int().optional(),
    },
    stateHandle: 'mints',
    annotations: READ_ONLY,
    logFields: (args) => namespaceLogFields(args.path),
    handle: async (args, context) => ({
      structured: { ...(await fileList.execute({ sessionId: context.sessionId, ...args })) },
    }),
  });
}

export const fileListSpec = toolSpec({
  name: 'file_list',
  facts: { toolset: 'repo', permission: 'allowlisted', readOnly: true },
  rank: 30,
  useCase: FileList,
  create: (services) => new FileList(services.namespace, services.sessions, services.files, services.regex, services.settings, services.ignoreCache),
  definition: fileListTool,
});
