import { z } from 'zod';
import type { ChangeDirectory } from '../../../../domain/tools/change-directory.js';
import { defineTool, READ_ONLY, type ToolDefinition } from '../tool-definition.js';
import { namespaceLogFields } from './namespace-tool-support.js';

export function changeDirectoryTool(changeDirectory: ChangeDirectory): ToolDefinition {
  return defineTool({
    name: 'change_directory',
    title: 'Change the working directory',
    description:
      'Set the working directory that relative paths of view, str_replace, create_file, file_read, file_write and ' +
      'file_list resolve against, for this session only. Each session starts in /<default root>. path is absolute ' +
      "(/<root>/<dir>, every root being a top-level folder; see list_roots) or relative to the current directory; it " +
      "must be an existing directory inside a root ('..' never leaves a root). Returns the new working directory; " +
      "pass '.' to just read it. Always available.",
    inputSchema: {
      path: z.string().describe("Directory to move to: /<root>/<dir>, or relative like 'src' or '..'."),
    },
    outputSchema: {
      cwd: z.string().describe('The new working directory (namespace path).'),
    },
    annotations: READ_ONLY,
    logFields: (args) => namespaceLogFields(args.path),
    handle: async (args, context) => {
      const result = await changeDirectory.execute({ sessionId: context.sessionId, path: args.path });
      return { structured: { ...result }, text: `Working directory: ${result.cwd}` };
    },
  });
}
