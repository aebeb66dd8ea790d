import { z } from 'zod';
import type { RemoveFolder } from '../../../../domain/tools/remove-folder.js';
import { DESTRUCTIVE, defineTool, type ToolDefinition } from '../tool-definition.js';

export function removeFolderTool(removeFolder: RemoveFolder): ToolDefinition {
  return defineTool({
    name: 'remove_folder',
    title: 'Remove folder',
    description:
      'Delete a directory and everything in it (like rm -rf). Symlinks inside are removed themselves; their targets ' +
      'are never touched. The root itself cannot be removed. Fails with NOT_FOUND when nothing is there and with ' +
      'NOT_A_DIRECTORY for a file or a symlink (use remove_file for those). Cannot be undone.',
    inputSchema: {
      root: z.string().describe('Name of a configured root (see list_roots).'),
      path: z.string().describe('Directory to remove, relative to the root; must not be the root itself.'),
    },
    outputSchema: {
      path: z.string(),
      removed: z.literal(true),
    },
    annotations: DESTRUCTIVE,
    logFields: (args) => ({ root: args.root, path: args.path }),
    handle: async (args) => ({ structured: { ...(await removeFolder.execute(args)) } }),
  });
}
