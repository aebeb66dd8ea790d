import { z } from 'zod';
import type { StatFile } from '../../../../domain/tools/stat-file.js';
import { READ_ONLY, defineTool, type ToolDefinition } from '../tool-definition.js';

const ENTRY_TYPE = z.enum(['file', 'directory', 'symlink', 'other']);

export function statFileTool(statFile: StatFile): ToolDefinition {
  return defineTool({
    name: 'stat_file',
    title: 'Stat file',
    description:
      'Metadata of a file, directory or symlink in a root: `size` (bytes; for a directory the OS entry size, not its ' +
      'contents), `is_directory`, `is_symlink`, `modified_at` and `created_at` (ISO 8601, created_at when the OS ' +
      'knows it) and `permissions` (octal, e.g. "0644"). A symlink is described itself; when it leads to something ' +
      'inside the root, `target` describes that (its in-root path, size, type, modified_at); `target_outside_root` ' +
      'or `target_missing` is set instead when it leads outside the root or nowhere. Fails with NOT_FOUND when ' +
      'nothing is there.',
    inputSchema: {
      root: z.string().describe('Name of a configured root (see list_roots).'),
      path: z.string().describe("Path relative to the root; '.' is the root itself."),
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
