import { z } from 'zod';
import type { Move } from '../../../../domain/tools/move.js';
import { DESTRUCTIVE, defineTool, type ToolDefinition } from '../tool-definition.js';

export function moveTool(move: Move): ToolDefinition {
  return defineTool({
    name: 'move',
    title: 'Move or rename file or directory',
    description:
      'Move or rename within or across roots (both must allow move). An existing directory at dest_path receives ' +
      'it inside; a file there is replaced, a directory never. Atomic on one file system; else copy then delete (a ' +
      'symlink, or a tree holding one or a special file, is refused; a failed copy is undone). Not a root, nor into its own subtree.',
    inputSchema: {
      source_root: z.string().describe('Source root name.'),
      source_path: z.string().describe('Path in source_root.'),
      dest_root: z.string().describe('Destination root name.'),
      dest_path: z
        .string()
        .describe('Path in dest_root.'),
    },
    outputSchema: {
      source: z.string(),
      destination: z.string(),
      cross_root: z.boolean(),
    },
    annotations: DESTRUCTIVE,
    logFields: (args) => ({ root: args.source_root, path: `${args.source_path} -> ${args.dest_root}:${args.dest_path}` }),
    handle: async (args, context) => ({ structured: { ...(await move.execute(args, context.work)) } }),
  });
}
