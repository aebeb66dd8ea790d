import { z } from 'zod';
import { CreateFolder } from '../../../../domain/tools/create-folder.js';
import { IDEMPOTENT_WRITE, defineTool, type ToolDefinition } from '../tool-calls/tool-definition.js';
import { toolSpec } from '../tool-calls/tool-spec.js';

export function createFolderTool(createFolder: CreateFolder): ToolDefinition {
  return defineTool({
    name: 'create_folder',
    title: 'Create folder',
    description:
      'Create a directory in a root with its parents (mkdir -p); fine if it exists. NOT_A_DIRECTORY if a file is in the way.',
    inputSchema: {
      root: z.string(),
      path: z.string(),
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

export const createFolderSpec = toolSpec({
  name: 'create_folder',
  facts: { toolset: 'root', permission: 'allowlisted', readOnly: false },
  rank: 80,
  useCase: CreateFolder,
  create: (services) => new CreateFolder(services.access, services.files),
  definition: createFolderTool,
});
