import { z } from 'zod';
import type { HashFile } from '../../../../domain/tools/hash-file.js';
import { READ_ONLY, defineTool, type ToolDefinition } from '../tool-definition.js';

export function hashFileTool(hashFile: HashFile): ToolDefinition {
  return defineTool({
    name: 'hash_file',
    title: 'Hash file',
    description:
      'Compute the md5, sha1 or sha256 digest of a file in a root, streaming it (any size works). `algorithm` is ' +
      'case-insensitive ("SHA256" works too). Returns `hash` (lower-case hex), `algorithm` (lower-case) and `size` ' +
      '(bytes hashed). Symlinks inside the root are followed. Fails with ' +
      'IS_A_DIRECTORY for a directory and INVALID_ARGUMENT for another algorithm.',
    inputSchema: {
      root: z.string().describe('Name of a configured root (see list_roots).'),
      path: z.string().describe('File path relative to the root.'),
      algorithm: z.string().describe('One of "md5", "sha1", "sha256", in any case ("SHA256" works too).'),
    },
    outputSchema: {
      path: z.string(),
      algorithm: z.enum(['md5', 'sha1', 'sha256']),
      hash: z.string(),
      size: z.number(),
    },
    annotations: READ_ONLY,
    logFields: (args) => ({ root: args.root, path: args.path }),
    handle: async (args) => ({ structured: { ...(await hashFile.execute(args)) } }),
  });
}
