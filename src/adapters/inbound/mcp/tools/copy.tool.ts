import { z } from 'zod';
import { Copy } from '../../../../domain/tools/copy.js';
import { DESTRUCTIVE, defineTool, type ToolDefinition } from '../tool-calls/tool-definition.js';
import { toolSpec } from '../tool-calls/tool-spec.js';
import { TRANSFER_INPUT, transferLogFields } from './entry-schemas.js';

export function copyTool(copy: Copy): ToolDefinition {
  return defineTool({
    name: 'copy',
    title: 'Copy file or directory',
    description:
      'Copy a file or tree within or across roots (both must allow copy). An existing directory at dest_path ' +
      'receives it inside; files overwritten, directories merged, parents created; not into its own subtree. ' +
      'Symlinks and special files in a tree are skipped (see `skipped`).',
    inputSchema: TRANSFER_INPUT,
    outputSchema: {
      source: z.string(),
      destination: z.string(),
      is_directory: z.boolean(),
      size: z.number(),
      files_copied: z.number(),
      skipped: z.array(z.object({ path: z.string(), reason: z.string() })),
    },
    // Overwrites existing files at the destination, which cannot be undone.
    annotations: DESTRUCTIVE,
    logFields: transferLogFields,
    handle: async (args, context) => ({ structured: { ...(await copy.execute(args, context.work)) } }),
  });
}

export const copySpec = toolSpec({
  name: 'copy',
  facts: { toolset: 'root', permission: 'allowlisted', readOnly: false },
  rank: 130,
  useCase: Copy,
  create: (services) => new Copy(services.files, services.access),
  definition: copyTool,
});
