import { z } from 'zod';
import { ListRoots } from '../../../../domain/tools/list-roots.js';
import { READ_ONLY, defineTool, type ToolDefinition } from '../tool-calls/tool-definition.js';
import { toolSpec } from '../tool-calls/tool-spec.js';

export function listRootsTool(listRoots: ListRoots): ToolDefinition {
  return defineTool({
    name: 'list_roots',
    title: 'List roots',
    description:
      'List the roots every other tool works in. Call first. `name` is the `root` argument (and the first segment ' +
      'of editor paths); a tool not in `allowed_tools` (["*"] = all) fails with TOOL_NOT_ALLOWED there.',
    inputSchema: {},
    outputSchema: {
      roots: z.array(z.object({ name: z.string(), allowed_tools: z.array(z.string()) })),
    },
    annotations: READ_ONLY,
    logFields: () => ({}),
    handle: async () => ({ structured: { ...(await listRoots.execute()) } }),
  });
}

export const listRootsSpec = toolSpec({
  name: 'list_roots',
  facts: { toolset: 'root', permission: 'always', readOnly: true },
  rank: 10,
  useCase: ListRoots,
  create: (services) => new ListRoots(services.paths),
  definition: listRootsTool,
});
