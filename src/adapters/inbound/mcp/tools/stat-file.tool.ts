import { z } from 'zod';
import { StatFile } from '../../../../domain/tools/stat-file.js';
import { READ_ONLY, defineTool, type ToolDefinition } from '../tool-calls/tool-definition.js';
import { toolSpec } from '../tool-calls/tool-spec.js';

const ENTRY_TYPE = z.enum(['file', 'directory', 'symlink', 'other']);

export function statFileTool(statFile: StatFile): ToolDefinition {
  return defineTool({
    name: 'stat_file',
    title: 'Stat file',
    description:
      'Metadata of a file, directory or symlink in a root (links described themselves; `target` tells what an ' +
      'in-root link leads to, else target_outside_root / target_missing). Octal permissions. NOT_FOUND.',
    inputSchema: {
      root: z.string(),
      path: z.string().describe("Path in the root ('.' = the root)."),
    },
    outputSchema: {
      name: z.string(),
      path: z.string(),
      size: z.number(),
      is_directory: z.boolean(),
      is_symlink: z.boolean(),
      modified_at: z.string(),
      created_at: z.string().optional(),
      permissions: z.string(),
      target: z
        .object({ path: z.string(), size: z.number(), is_directory: z.boolean(), modified_at: z.string(), type: ENTRY_TYPE })
        .optional(),
      target_outside_root: z.literal(true).optional(),
      target_missing: z.literal(true).optional(),
    },
    annotations: READ_ONLY,
    logFields: (args) => ({ root: args.root, path: args.path }),
    handle: async (args) => ({ structured: { ...(await statFile.execute(args)) } }),
  });
}

export const statFileSpec = toolSpec({
  name: 'stat_file',
  facts: { toolset: 'root', permission: 'allowlisted', readOnly: true },
  rank: 100,
  useCase: StatFile,
  create: (services) => new StatFile(services.access, services.files),
  definition: statFileTool,
});
