import { z } from 'zod';
import { ListFolder } from '../../../../domain/tools/list-folder.js';
import type { Settings } from '../../../../domain/settings.js';
import { ignoreField } from './search-limits.schema.js';
import { DEFAULT_MAX_ENTRIES, MAX_LIST_DEPTH, MAX_LIST_ENTRIES } from '../../../../domain/tools/list-subtree.js';
import { READ_ONLY, defineTool, type ToolDefinition } from '../tool-calls/tool-definition.js';
import { toolSpec } from '../tool-calls/tool-spec.js';

export function listFolderTool(listFolder: ListFolder, settings: Settings): ToolDefinition {
  return defineTool({
    name: 'list_folder',
    title: 'List folder',
    description:
      'List a directory sorted by name; with depth > 1 its subtree, each directory\'s entries right after it, ' +
      '`path` relative to the listed folder. Symlinks not followed; `target_type` says where they lead (external = ' +
      'outside the root). NOT_A_DIRECTORY, NOT_FOUND.',
    inputSchema: {
      root: z.string(),
      path: z.string().describe("Directory in the root ('.' = the root)."),
      depth: z.number().int().min(1).max(MAX_LIST_DEPTH).optional().describe(`Levels listed, 1–${MAX_LIST_DEPTH} (default 1 = children only).`),
      max_entries: z
        .number()
        .int()
        .min(1)
        .max(MAX_LIST_ENTRIES)
        .optional()
        .describe(`At most this many entries (default ${DEFAULT_MAX_ENTRIES} with depth > 1); past it truncated and omitted.`),
      ignore: ignoreField(settings.search),
    },
    outputSchema: {
      path: z.string(),
      entries: z.array(
        z.object({
          name: z.string(),
          path: z.string().optional(),
          type: z.enum(['file', 'directory', 'symlink', 'other']),
          size: z.number(),
          modified_at: z.string(),
          target_type: z.enum(['file', 'directory', 'other', 'external', 'broken']).optional(),
        }),
      ),
      count: z.number(),
      truncated: z.boolean().optional(),
      omitted: z.number().optional(),
      ignored: z.number().optional(),
    },
    annotations: READ_ONLY,
    logFields: (args) => ({ root: args.root, path: args.path }),
    handle: async (args, context) => ({ structured: { ...(await listFolder.execute(args, context.work)) } }),
  });
}

export const listFolderSpec = toolSpec({
  name: 'list_folder',
  facts: { toolset: 'root', permission: 'allowlisted', readOnly: true },
  rank: 20,
  useCase: ListFolder,
  create: (services) => new ListFolder(services.access, services.files, services.settings, services.ignoreCache),
  definition: listFolderTool,
});
