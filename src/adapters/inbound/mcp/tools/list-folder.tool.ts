import { z } from 'zod';
import type { ListFolder } from '../../../../domain/tools/list-folder.js';
import { READ_ONLY, defineTool, type ToolDefinition } from '../tool-definition.js';

export function listFolderTool(listFolder: ListFolder): ToolDefinition {
  return defineTool({
    name: 'list_folder',
    title: 'List folder',
    description:
      'List a directory\'s children in a root (not recursive; see glob), sorted by name. Symlinks are not followed; ' +
      '`target_type` says where they lead (external = outside the root, unusable). NOT_A_DIRECTORY, NOT_FOUND.',
    inputSchema: {
      root: z.string().describe('Root name.'),
      path: z.string().describe("Directory in the root ('.' = the root)."),
    },
    outputSchema: {
      path: z.string(),
      entries: z.array(
        z.object({
          name: z.string(),
          type: z.enum(['file', 'directory', 'symlink', 'other']),
          size: z.number(),
          modified_at: z.string(),
          target_type: z.enum(['file', 'directory', 'other', 'external', 'broken']).optional(),
        }),
      ),
      count: z.number(),
    },
    annotations: READ_ONLY,
    logFields: (args) => ({ root: args.root, path: args.path }),
    handle: async (args) => ({ structured: { ...(await listFolder.execute(args)) } }),
  });
}
