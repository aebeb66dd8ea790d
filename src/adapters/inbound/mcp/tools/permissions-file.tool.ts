import { z } from 'zod';
import { PermissionsFile } from '../../../../domain/tools/permissions-file.js';
import { READ_ONLY, defineTool, type ToolDefinition } from '../tool-calls/tool-definition.js';
import { toolSpec } from '../tool-calls/tool-spec.js';

export function permissionsFileTool(permissionsFile: PermissionsFile): ToolDefinition {
  return defineTool({
    name: 'permissions_file',
    title: 'File permissions',
    description:
      'Owner, group, uid, gid, octal mode and ls -l mode string of a file, directory or symlink in a root ' +
      '(links not followed). NOT_FOUND.',
    inputSchema: {
      root: z.string(),
      path: z.string().describe("Path in the root ('.' = the root)."),
    },
    outputSchema: {
      path: z.string(),
      owner: z.string(),
      group: z.string(),
      mode: z.string(),
      mode_string: z.string(),
      uid: z.number(),
      gid: z.number(),
    },
    annotations: READ_ONLY,
    logFields: (args) => ({ root: args.root, path: args.path }),
    handle: async (args) => ({ structured: { ...(await permissionsFile.execute(args)) } }),
  });
}

export const permissionsFileSpec = toolSpec({
  name: 'permissions_file',
  facts: { toolset: 'root', permission: 'allowlisted', readOnly: true },
  rank: 120,
  useCase: PermissionsFile,
  create: (services) => new PermissionsFile(services.access, services.files),
  definition: permissionsFileTool,
});
