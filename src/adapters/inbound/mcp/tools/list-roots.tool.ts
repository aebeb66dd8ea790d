import { z } from 'zod';
import type { ListRoots } from '../../../../domain/tools/list-roots.js';
import { READ_ONLY, defineTool, type ToolDefinition } from '../tool-definition.js';

export function listRootsTool(listRoots: ListRoots): ToolDefinition {
  return defineTool({
    name: 'list_roots',
    title: 'List roots',
    description:
      'List the configured roots: the named directories every other tool works in. Call this first. Each root has a ' +
      '`name` (pass it as `root` to the other tools) and `allowed_tools`, the tools that may be used on it ' +
      '(["*"] means all). Paths given to other tools are relative to the chosen root; host paths are never shown. ' +
      'Always available; takes no arguments.',
    inputSchema: {},
    outputSchema: {
      roots: z.array(z.object({ name: z.string(), allowed_tools: z.array(z.string()) })),
    },
    annotations: READ_ONLY,
    logFields: () => ({}),
    handle: async () => ({ structured: { ...(await listRoots.execute()) } }),
  });
}
