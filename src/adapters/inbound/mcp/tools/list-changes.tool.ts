import { z } from 'zod';
import { MAX_LIST_LIMIT, ListChanges } from '../../../../domain/changes/list-changes.js';
import { READ_ONLY, defineTool, type ToolDefinition } from '../tool-calls/tool-definition.js';
import { toolSpec, type ToolServices } from '../tool-calls/tool-spec.js';
import { changeSchema } from './change-schemas.js';

export function listChangesTool(listChanges: ListChanges): ToolDefinition {
  return defineTool({
    name: 'list_changes',
    title: 'List changes',
    description:
      'Your changes through any tool, newest first: op, path, before/after, undoable (reason if not). ' +
      'Pass ids to undo_changes.',
    inputSchema: {
      root: z.string().optional().describe('Only this root.'),
      path: z.string().optional().describe('Only this path (needs root).'),
      session: z.enum(['this', 'all']).optional().describe('Default "all" of your sessions.'),
      limit: z.number().int().min(1).max(MAX_LIST_LIMIT).optional().describe(`Default 50, at most ${MAX_LIST_LIMIT}.`),
      before_id: z.string().max(64).optional().describe('Next page: the last id shown.'),
      diff: z.boolean().optional().describe('Unified diffs of text files.'),
    },
    outputSchema: {
      changes: z.array(changeSchema),
      diffs_omitted: z.number().optional(),
    },
    stateHandle: 'accepts',
    annotations: READ_ONLY,
    logFields: (args) => ({ root: args.root, path: args.path }),
    handle: async (args, context) => ({ structured: { ...(await listChanges.execute(args, context.sessionId)) } }),
  });
}

/** review_changes lists through a ListChanges of its own, built the same way. */
export function listChangesOf(services: ToolServices): ListChanges {
  return new ListChanges(services.journal, services.paths, services.principals, services.changeContents, services.settings, services.snapshots);
}

export const listChangesSpec = toolSpec({
  name: 'list_changes',
  facts: { toolset: 'changes', permission: 'always', readOnly: true },
  rank: 10,
  useCase: ListChanges,
  create: listChangesOf,
  definition: listChangesTool,
});
