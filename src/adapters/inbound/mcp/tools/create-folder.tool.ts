import { z } from 'zod';
import type { CreateFolder } from '../../../../domain/tools/create-folder.js';
import { IDEMPOTENT_WRITE, defineTool, type ToolDefinition } from '../tool-definition.js';

export function createFolderTool(createFolder: CreateFolder): ToolDefinition {
  return defineTool({
    name: 'create_folder',
    title: 'Create folder',
    description:
      'Create a directory in a root, with any missing parents (like mkdir -p). Succeeds if it already exists ' +
      '(`already_existed` tells which); fails with NOT_A_DIRECTORY if a file is in the way.',
    inputSchema: {
      root: z.string().describe('Name of a configured root (see list_roots).'),
      path: z.string().describe('Directory to create, relative to the root.'),
    },
    outputSchema: {
      path: z.string(),
      created: z.literal(true),
      already_existed: z.boolean(),
    },
    annotations: IDEMPOTENT_WRITE,
    logFields: (args) => ({ root: args.root, path: args.path }),
    handle: async (args) => ({ structured: { ...(await createFolder.execute(args)) } }),
  });
}
