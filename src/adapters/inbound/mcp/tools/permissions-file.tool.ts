import { z } from 'zod';
import type { PermissionsFile } from '../../../../domain/tools/permissions-file.js';
import { READ_ONLY, defineTool, type ToolDefinition } from '../tool-definition.js';

export function permissionsFileTool(permissionsFile: PermissionsFile): ToolDefinition {
  return defineTool({
    name: 'permissions_file',
    title: 'File permissions',
    description:
      'Owner, group and permission bits of a file, directory or symlink in a root (a symlink is reported itself, not ' +
      'followed). Returns `owner` and `group` names (the numeric id as text when no name is known), `uid`, `gid`, ' +
      '`mode` in octal (e.g. "0755"; setuid/setgid/sticky show in the first digit) and `mode_string` as ls -l ' +
      'prints it (e.g. "-rwxr-xr-x", "drwxr-xr-x", "lrwxrwxrwx").',
    inputSchema: {
      root: z.string().describe('Name of a configured root (see list_roots).'),
      path: z.string().describe("Path relative to the root; '.' is the root itself."),
    },
    outputSchema: {
      path: z.string(),
      owner: z.string(),
      group: z.string(),
      mode: z.string(),
      mode_string: z.string(),
      uid: z.number(),
      gid: z.number(),
    },
    annotations: READ_ONLY,
    logFields: (args) => ({ root: args.root, path: args.path }),
    handle: async (args) => ({ structured: { ...(await permissionsFile.execute(args)) } }),
  });
}
