import { z } from 'zod';
import type { Settings } from '../../../../domain/settings.js';
import { formatSize } from '../../../../domain/tools/file-text.js';
import type { PatchFile } from '../../../../domain/tools/patch-file.js';
import { WRITES, defineTool, type ToolDefinition } from '../tool-definition.js';

export function patchFileTool(patchFile: PatchFile, settings: Settings): ToolDefinition {
  return defineTool({
    name: 'patch_file',
    title: 'Patch file',
    description:
      'Apply a unified diff to ONE text file in a root. The diff has "@@ -start,count +start,count @@" hunks whose ' +
      "lines start with ' ' (context), '-' (removed) or '+' (added); ---/+++ header lines are optional and their file " +
      'names are ignored (`path` names the file). Context and removed lines must match the file exactly; a hunk whose ' +
      'line number is off is searched for nearby, and miscounted header counts are tolerated. All or nothing: if any ' +
      'hunk does not match, nothing is written and the error (PATCH_FAILED) names the hunk and line; re-read the file ' +
      'and retry. A missing file is treated as ' +
      'empty, so a diff of only added lines creates it (parents too). Line endings and the final-newline state are ' +
      'kept ("\\ No newline at end of file" is understood). Binary files and files over max_file_size ' +
      `(${formatSize(settings.maxFileSize)}) are refused. Returns \`hunks_applied\` and \`created\`.`,
    inputSchema: {
      root: z.string().describe('Name of a configured root (see list_roots).'),
      path: z.string().describe('File to patch, relative to the root.'),
      patch: z.string().describe('Unified diff text for this one file.'),
    },
    outputSchema: {
      path: z.string(),
      hunks_applied: z.number(),
      created: z.boolean(),
    },
    // Not flagged destructive: only the lines the diff names change, and the diff itself records what it removed.
    annotations: WRITES,
    logFields: (args) => ({ root: args.root, path: args.path }),
    handle: async (args) => ({ structured: { ...(await patchFile.execute(args)) } }),
  });
}
