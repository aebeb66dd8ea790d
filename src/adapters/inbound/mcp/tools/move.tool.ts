import { z } from 'zod';
import { Move } from '../../../../domain/tools/move.js';
import { DESTRUCTIVE, defineTool, type ToolDefinition } from '../tool-calls/tool-definition.js';
import { toolSpec } from '../tool-calls/tool-spec.js';
import { TRANSFER_INPUT, transferLogFields } from './entry-schemas.js';

export function moveTool(move: Move): ToolDefinition {
  return defineTool({
    name: 'move',
    title: 'Move or rename file or directory',
    description:
      'Move or rename within or across roots (both must allow move). An existing directory at dest_path receives ' +
      'it inside; a file there is replaced, a directory never. Atomic on one file system, else copy then delete ' +
      '(refused for a symlink or a tree with one or a special file). Not a root, nor into its own subtree.',
    inputSchema: TRANSFER_INPUT,
    outputSchema: {
      source: z.string(),
      destination: z.string(),
      cross_root: z.boolean(),
    },
    annotations: DESTRUCTIVE,
    logFields: transferLogFields,
    handle: async (args, context) => ({ structured: { ...(await move.execute(args, context.work)) } }),
  });
}

export const moveSpec = toolSpec({
  name: 'move',
  facts: { toolset: 'root', permission: 'allowlisted', readOnly: false },
  rank: 140,
  useCase: Move,
  create: (services) => new Move(services.files, services.access),
  definition: moveTool,
});
