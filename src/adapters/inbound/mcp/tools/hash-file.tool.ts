import { z } from 'zod';
import { HashFile } from '../../../../domain/tools/hash-file.js';
import { READ_ONLY, defineTool, type ToolDefinition } from '../tool-calls/tool-definition.js';
import { toolSpec } from '../tool-calls/tool-spec.js';

export function hashFileTool(hashFile: HashFile): ToolDefinition {
  return defineTool({
    name: 'hash_file',
    title: 'Hash file',
    description:
      'md5, sha1 or sha256 hex digest of a file in a root, streamed (any size); in-root links followed. ' +
      'IS_A_DIRECTORY, INVALID_ARGUMENT for another algorithm.',
    inputSchema: {
      root: z.string(),
      path: z.string(),
      algorithm: z.string().describe('md5, sha1 or sha256 (any case).'),
    },
    outputSchema: {
      path: z.string(),
      algorithm: z.enum(['md5', 'sha1', 'sha256']),
      hash: z.string(),
      size: z.number(),
    },
    annotations: READ_ONLY,
    logFields: (args) => ({ root: args.root, path: args.path }),
    handle: async (args, context) => ({ structured: { ...(await hashFile.execute(args, context.work)) } }),
  });
}

export const hashFileSpec = toolSpec({
  name: 'hash_file',
  facts: { toolset: 'root', permission: 'allowlisted', readOnly: true },
  rank: 110,
  useCase: HashFile,
  create: (services) => new HashFile(services.access, services.files, services.hasher),
  definition: hashFileTool,
});
