import { z } from 'zod';
import { dryRunText, type DryRunFields } from '../../../../domain/tools/dry-run.js';
import type { ToolOutput } from '../tool-calls/tool-definition.js';

/** The input flag and output fields every tool with a dry run adds to its schemas. */
export const DRY_RUN_INPUT = { dry_run: z.boolean().optional().describe('Write nothing; return the unified diff.') };
export const DRY_RUN_OUTPUT = {
  dry_run: z.literal(true).optional(),
  diff: z.string().optional(),
  diff_omitted: z.string().optional(),
};

/** A result as it goes out: a dry run's text block is a line saying so, then the diff. */
export function withDryRunText<T extends object>(result: T | (T & DryRunFields), what: (result: T) => string): ToolOutput {
  const structured = { ...result } as Record<string, unknown>;
  if (!('dry_run' in result)) return { structured };
  return { structured, text: dryRunText(what(result), result) };
}
