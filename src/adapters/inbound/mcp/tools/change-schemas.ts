import { z } from 'zod';

const state = z.object({ kind: z.string(), size: z.number(), mode: z.string(), sha256: z.string().nullable() }).nullable();

/** One journaled change as list_changes returns it. */
export const changeSchema = z.object({
  id: z.string(),
  time: z.string(),
  principal: z.string(),
  session: z.string(),
  tool: z.string(),
  op: z.string(),
  root: z.string(),
  path: z.string(),
  to_root: z.string().optional(),
  to_path: z.string().optional(),
  before: state,
  after: state,
  undoable: z.boolean(),
  reason: z.string().optional(),
  not_restorable: z.string().optional(),
  undone_by: z.string().optional(),
  diff: z.string().optional(),
  diff_omitted: z.string().optional(),
});

/** One change undo_changes was asked for, with its outcome. */
export const undoResultSchema = z.object({
  id: z.string(),
  outcome: z.enum(['restored', 'conflict', 'not_undoable', 'denied', 'would_restore']),
  op: z.string().optional(),
  root: z.string().optional(),
  path: z.string().optional(),
  reason: z.string().optional(),
  diff: z.string().optional(),
  diff_omitted: z.string().optional(),
});
