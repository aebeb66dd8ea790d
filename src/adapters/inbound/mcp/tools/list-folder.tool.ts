import { z } from 'zod';
import type { ListFolder } from '../../../../domain/tools/list-folder.js';
import { READ_ONLY, defineTool, type ToolDefinition } from '../tool-definition.js';

export function listFolderTool(listFolder: ListFolder): ToolDefinition {
  return defineTool({
    name: 'list_folder',
    title: 'List folder',
    description:
      'List the immediate children of a directory in a root (not recursive; use glob for that), sorted by name. ' +
      'Each entry has `name`, `type` (file, directory, symlink or other), `size` in bytes and `modified_at` (ISO 8601). ' +
      "Symlinks are not followed; they carry `target_type`: 'file' or 'directory' when the link leads to that inside " +
      "the root, 'other' when it leads to a special file (FIFO, socket, device) inside the root, 'external' when it " +
      "leads outside the root (such links cannot be used), 'broken' when the target does not exist. Fails with " +
      "NOT_A_DIRECTORY for a file. Use path '.' for the root itself.",
    inputSchema: {
      root: z.string().describe('Name of a configured root (see list_roots).'),
      path: z.string().describe("Directory relative to the root; '', '.' or '/' means the root itself."),
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
