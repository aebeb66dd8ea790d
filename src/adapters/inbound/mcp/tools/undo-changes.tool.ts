import { z } from 'zod';
import { THE_START } from '../../../../domain/changes/change-id.js';
import { MAX_SELECTED, UndoChanges } from '../../../../domain/changes/undo-changes.js';
import { DESTRUCTIVE, defineTool, type ToolDefinition } from '../tool-calls/tool-definition.js';
import { toolSpec } from '../tool-calls/tool-spec.js';
import { Restorer } from '../../../../domain/changes/restorer.js';
import { undoResultSchema } from './change-schemas.js';

export function undoChangesTool(undoChanges: UndoChanges): ToolDefinition {
  return defineTool({
    name: 'undo_changes',
    title: 'Undo changes',
    description:
      'Undo your changes (see list_changes), newest first: restores content and mode, recreates removed, ' +
      'reverses moves, removes created. Pick by ids, root+path or since_id. A path changed since is ' +
      `a conflict (kept unless force). An undo can itself be undone. At most ${MAX_SELECTED} a call; more is refused whole.`,
    inputSchema: {
      ids: z.array(z.string()).max(MAX_SELECTED).optional().describe('Change ids from list_changes.'),
      root: z.string().optional().describe('Root of path; also limits since_id.'),
      path: z.string().optional().describe('Undo all your changes to this path (needs root).'),
      since_id: z.string().optional().describe(`Undo all your later changes (${THE_START}: from the start).`),
      session: z.enum(['this', 'all']).optional().describe('Scope of path/since_id; default: this without auth, else all.'),
      dry_run: z.boolean().optional().describe('Report the outcomes; change nothing.'),
      force: z.boolean().optional().describe('Restore over later edits.'),
    },
    outputSchema: {
      results: z.array(undoResultSchema),
    },
    stateHandle: 'accepts',
    annotations: DESTRUCTIVE,
    logFields: (args) => ({ root: args.root, path: args.path ?? (args.ids ? `ids ${args.ids.join(',')}` : args.since_id ? `since ${args.since_id}` : undefined) }),
    handle: async (args, context) => ({ structured: { ...(await undoChanges.execute(args, context.sessionId)) } }),
  });
}

export const undoChangesSpec = toolSpec({
  name: 'undo_changes',
  facts: { toolset: 'changes', permission: 'allowlisted', readOnly: false },
  rank: 20,
  useCase: UndoChanges,
  create: (services) => new UndoChanges(services.journal, services.paths, services.toolPolicy, services.principals, services.changeContents, services.snapshots, new Restorer(services.files), services.settings, services.journalObserver),
  definition: undoChangesTool,
});
