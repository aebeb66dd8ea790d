import { z } from 'zod';
import { ReviewChanges, type ChangesReview } from '../../../../domain/changes/review-changes.js';
import { READ_ONLY, defineTool, type ToolDefinition } from '../tool-calls/tool-definition.js';
import { toolSpec, type ToolServices } from '../tool-calls/tool-spec.js';
import { REVIEW_APP_META } from '../protocol/app-resources.js';
import { listChangesOf } from './list-changes.tool.js';
import { reviewText } from './review-text.js';

export function reviewChangesTool(review: ReviewChanges): ToolDefinition {
  return defineTool({
    name: 'review_changes',
    title: 'Review changes',
    description:
      'Show your person your changes to review and undo (an app where the client renders MCP Apps): ' +
      'by file, newest first, with diffs. Text: the same, diffs folded. Filters as list_changes.',
    inputSchema: {
      root: z.string().optional(),
      path: z.string().optional(),
      session: z.enum(['this', 'all']).optional(),
      since_id: z.string().max(64).optional().describe('Only changes after this id.'),
    },
    // The app reads the changes of list_changes(diff: true) from here; the listing spares their fields.
    outputSchema: {
      changes: z.array(z.record(z.string(), z.unknown())),
      diffs_omitted: z.number().optional(),
    },
    stateHandle: 'accepts',
    annotations: READ_ONLY,
    meta: REVIEW_APP_META,
    logFields: (args) => ({ root: args.root, path: args.path }),
    handle: async (args, context) => {
      const shown: ChangesReview = await review.execute(args, context.sessionId);
      const { files: _files, ...structured } = shown;
      return { structured, text: reviewText(shown) };
    },
  });
}

export const reviewChangesSpec = toolSpec({
  name: 'review_changes',
  facts: { toolset: 'changes', permission: 'always', readOnly: true },
  rank: 30,
  useCase: ReviewChanges,
  create: (services: ToolServices) => new ReviewChanges(listChangesOf(services)),
  definition: reviewChangesTool,
});
