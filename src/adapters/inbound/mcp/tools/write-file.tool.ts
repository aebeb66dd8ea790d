import { z } from 'zod';
import { WriteFile } from '../../../../domain/tools/write-file.js';
import { DRY_RUN_INPUT, DRY_RUN_OUTPUT, withDryRunText } from './dry-run-output.js';
import { DESTRUCTIVE, defineTool, type ToolDefinition } from '../tool-calls/tool-definition.js';
import { toolSpec } from '../tool-calls/tool-spec.js';

export function writeFileTool(writeFile: WriteFile): ToolDefinition {
  return defineTool({
    name: 'write_file',
    title: 'Write file',
    description:
      'Write UTF-8 text to a file in a root, creating parents. mode: overwrite (default, atomic), append, or ' +
      'create_only (ALREADY_EXISTS if anything is there). Existing files keep their mode. No size limit. ' +
      'Prefer patch_file for edits.',
    inputSchema: {
      root: z.string(),
      path: z.string(),
      content: z.string().describe('Text to write, verbatim.'),
      mode: z.string().optional(),
      ...DRY_RUN_INPUT,
    },
    outputSchema: {
      path: z.string(),
      size: z.number(),
      mode: z.string(),
      ...DRY_RUN_OUTPUT,
    },
    // Destructive: the default overwrite mode discards the old content for good.
    annotations: DESTRUCTIVE,
    logFields: (args) => ({ root: args.root, path: args.path }),
    handle: async (args) => withDryRunText(await writeFile.execute(args), (result) => `Would write ${result.size} bytes to ${result.path}.`),
  });
}

export const writeFileSpec = toolSpec({
  name: 'write_file',
  facts: { toolset: 'root', permission: 'allowlisted', readOnly: false },
  rank: 50,
  useCase: WriteFile,
  create: (services) => new WriteFile(services.access, services.files, services.settings),
  definition: writeFileTool,
});
