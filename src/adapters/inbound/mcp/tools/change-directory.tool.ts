import { z } from 'zod';
import { ChangeDirectory } from '../../../../domain/tools/change-directory.js';
import { defineTool, READ_ONLY, type ToolDefinition } from '../tool-calls/tool-definition.js';
import { toolSpec } from '../tool-calls/tool-spec.js';
import { namespaceLogFields } from './namespace-tool-support.js';

export function changeDirectoryTool(changeDirectory: ChangeDirectory): ToolDefinition {
  return defineTool({
    name: 'change_directory',
    title: 'Change the working directory',
    description:
      "Set the working directory for relative paths (first: the default root): /<root>/<dir> or relative; '.' reads it. " +
      'NOT_FOUND / NOT_A_DIRECTORY unless a directory in a root; INVALID_ARGUMENT for /; ACCESS_DENIED for a link out of its root.',
    inputSchema: {
      path: z.string().describe("Directory: /<root>/<dir> or relative ('src', '..')."),
    },
    outputSchema: {
      cwd: z.string().describe('The new working directory (namespace path).'),
    },
    stateHandle: 'mints',
    annotations: READ_ONLY,
    logFields: (args) => namespaceLogFields(args.path),
    handle: async (args, context) => {
      const result = await changeDirectory.execute({ sessionId: context.sessionId, path: args.path });
      return { structured: { ...result }, text: `Working directory: ${result.cwd}` };
    },
  });
}

export const changeDirectorySpec = toolSpec({
  name: 'change_directory',
  facts: { toolset: 'editor', permission: 'always', readOnly: true },
  rank: 40,
  useCase: ChangeDirectory,
  create: (services) => new ChangeDirectory(services.namespace, services.sessions, services.files),
  definition: changeDirectoryTool,
});
