import { z } from 'zod';
import type { Move } from '../../../../domain/tools/move.js';
import { DESTRUCTIVE, defineTool, type ToolDefinition } from '../tool-definition.js';

export function moveTool(move: Move): ToolDefinition {
  return defineTool({
    name: 'move',
    title: 'Move or rename file or directory',
    description:
      'Move or rename a file, directory or symlink, within a root or to another root. `source_root` and `dest_root` ' +
      'name configured roots (see list_roots); both must allow `move`. Paths are relative to their root. If `dest_path` ' +
      'is an existing directory the source is moved INTO it (dest_path/<source name>); an existing file at the ' +
      'destination is replaced; an existing directory is never replaced; missing parent directories are created. ' +
      'Within one file system the move is an atomic rename. Between file systems (possible across roots) it is a ' +
      'copy then a delete, not atomic: if the copy fails, the partial copy is removed and the source is left intact; ' +
      'such a move refuses trees containing symlinks or special files, which a copy cannot carry. A root itself ' +
      'cannot be moved, nor a directory into its own subtree. Returns the in-root source and final destination ' +
      'paths and `cross_root` (true when the roots differ).',
    inputSchema: {
      source_root: z.string().describe('Name of the root to move from (see list_roots).'),
      source_path: z.string().describe('File, directory or symlink to move, relative to source_root.'),
      dest_root: z.string().describe('Name of the root to move to; may be the same as source_root.'),
      dest_path: z
        .string()
        .describe('New path relative to dest_root. An existing directory receives the source inside it.'),
    },
    outputSchema: {
      source: z.string(),
      destination: z.string(),
      cross_root: z.boolean(),
    },
    annotations: DESTRUCTIVE,
    logFields: (args) => ({ root: args.source_root, path: `${args.source_path} -> ${args.dest_root}:${args.dest_path}` }),
    handle: async (args) => ({ structured: { ...(await move.execute(args)) } }),
  });
}
