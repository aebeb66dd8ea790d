import { z } from 'zod';
import type { ToolLogFields } from '../tool-calls/tool-definition.js';

/** One entry of a root, as remove_file and remove_folder take it. */
export const ENTRY_INPUT = {
  root: z.string(),
  path: z.string(),
};

/** What a removal answers. */
export const REMOVED_OUTPUT = {
  path: z.string(),
  removed: z.literal(true),
};

export const entryLogFields = (args: { root: string; path: string }): ToolLogFields => ({ root: args.root, path: args.path });

/** A source and a destination, in one root or across two: copy and move. */
export const TRANSFER_INPUT = {
  source_root: z.string(),
  source_path: z.string(),
  dest_root: z.string(),
  dest_path: z.string(),
};

export const transferLogFields = (args: { source_root: string; source_path: string; dest_root: string; dest_path: string }): ToolLogFields => ({
  root: args.source_root,
  path: `${args.source_path} -> ${args.dest_root}:${args.dest_path}`,
});
