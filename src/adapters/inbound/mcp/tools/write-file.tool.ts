import { z } from 'zod';
import type { WriteFile } from '../../../../domain/tools/write-file.js';
import { DESTRUCTIVE, defineTool, type ToolDefinition } from '../tool-definition.js';

export function writeFileTool(writeFile: WriteFile): ToolDefinition {
  return defineTool({
    name: 'write_file',
    title: 'Write file',
    description:
      'Write text (UTF-8) to a file in a root. `mode`: "overwrite" (default) replaces the whole file atomically, or ' +
      'creates it; "append" adds to the end, or creates it; "create_only" creates the file and fails with ' +
      'ALREADY_EXISTS if anything is already there. Missing parent directories are created. An existing file keeps ' +
      'its permissions. Returns `path`, `size` (bytes written by this call) and `mode`. To change part of a file, ' +
      'prefer patch_file.',
    inputSchema: {
      root: z.string().describe('Name of a configured root (see list_roots).'),
      path: z.string().describe('File path relative to the root; parent directories are created as needed.'),
      content: z.string().describe('The text to write, exactly as it should appear in the file.'),
      mode: z.string().optional().describe('One of "overwrite" (default), "append", "create_only".'),
    },
    outputSchema: {
      path: z.string(),
      size: z.number(),
      mode: z.string(),
    },
    // Destructive: the default overwrite mode discards the old content for good.
    annotations: DESTRUCTIVE,
    logFields: (args) => ({ root: args.root, path: args.path }),
    handle: async (args) => ({ structured: { ...(await writeFile.execute(args)) } }),
  });
}
