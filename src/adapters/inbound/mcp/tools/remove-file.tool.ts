import { z } from 'zod';
import type { RemoveFile } from '../../../../domain/tools/remove-file.js';
import { DESTRUCTIVE, defineTool, type ToolDefinition } from '../tool-definition.js';

export function removeFileTool(removeFile: RemoveFile): ToolDefinition {
  return defineTool({
    name: 'remove_file',
    title: 'Remove file',
    description:
      'Delete one file in a root. A symlink is removed itself, never its target. Fails with IS_A_DIRECTORY for a ' +
      'directory (use remove_folder) and NOT_FOUND when nothing is there. Cannot be undone.',
    inputSchema: {
      root: z.string().describe('Name of a configured root (see list_roots).'),
      path: z.string().describe('File path relative to the root.'),
    },
    outputSchema: {
      path: z.string(),
      removed: z.literal(true),
    },
    annotations: DESTRUCTIVE,
    logFields: (args) => ({ root: args.root, path: args.path }),
    handle: async (args) => ({ structured: { ...(await removeFile.execute(args)) } }),
  });
}
