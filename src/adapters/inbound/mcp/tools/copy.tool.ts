import { z } from 'zod';
import type { Copy } from '../../../../domain/tools/copy.js';
import { DESTRUCTIVE, defineTool, type ToolDefinition } from '../tool-definition.js';

export function copyTool(copy: Copy): ToolDefinition {
  return defineTool({
    name: 'copy',
    title: 'Copy file or directory',
    description:
      'Copy a file or a directory (recursively) to another place in the same root or in another root. ' +
      '`source_root` and `dest_root` name configured roots (see list_roots); both must allow `copy`. Paths are relative ' +
      'to their root. If `dest_path` is an existing directory the source is copied INTO it (dest_path/<source name>); ' +
      'an existing file at the destination is overwritten; missing parent directories are created; a directory copied ' +
      'onto an existing directory of the same name is merged into it. A directory cannot be copied into itself or its ' +
      'own subtree. Symlinks inside a copied directory are neither followed nor recreated: they are left out and listed ' +
      "in `skipped` (reason 'symlink'), as are special files; a source path that is itself a link inside the root is " +
      'followed. Returns the in-root source and final destination paths, `size` (bytes of the file, or total bytes ' +
      'copied for a directory) and `files_copied`.',
    inputSchema: {
      source_root: z.string().describe('Name of the root to copy from (see list_roots).'),
      source_path: z.string().describe('File or directory to copy, relative to source_root.'),
      dest_root: z.string().describe('Name of the root to copy to; may be the same as source_root.'),
      dest_path: z
        .string()
        .describe('Destination path relative to dest_root. An existing directory receives the source inside it.'),
    },
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
    logFields: (args) => ({ root: args.source_root, path: `${args.source_path} -> ${args.dest_root}:${args.dest_path}` }),
    handle: async (args) => ({ structured: { ...(await copy.execute(args)) } }),
  });
}
