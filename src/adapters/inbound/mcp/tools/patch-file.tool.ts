import { z } from 'zod';
import type { Settings } from '../../../../domain/settings.js';
import { formatSize } from '../../../../domain/tools/file-text.js';
import { PatchFile } from '../../../../domain/tools/patch-file.js';
import { DRY_RUN_INPUT, DRY_RUN_OUTPUT, withDryRunText } from './dry-run-output.js';
import { DESTRUCTIVE, defineTool, type ToolDefinition } from '../tool-calls/tool-definition.js';
import { toolSpec } from '../tool-calls/tool-spec.js';

export function patchFileTool(patchFile: PatchFile, settings: Settings): ToolDefinition {
  return defineTool({
    name: 'patch_file',
    title: 'Patch file',
    description:
      'Apply a unified diff (@@ hunks; ---/+++ optional) to ONE text file in a root. Context must match; a hunk off ' +
      'its line is searched for after the previous one: see `hunks`. All or nothing: PATCH_FAILED names the hunk ' +
      `and line. A missing file counts as empty. Line endings kept. Binary files and files over max_file_size (${formatSize(settings.maxFileSize)}) are refused.`,
    inputSchema: {
      root: z.string(),
      path: z.string(),
      patch: z.string().describe('Unified diff for this file.'),
      ...DRY_RUN_INPUT,
    },
    outputSchema: {
      path: z.string(),
      hunks_applied: z.number(),
      created: z.boolean(),
      hunks: z.array(z.object({ stated_line: z.number(), applied_line: z.number(), offset: z.number() })),
      ...DRY_RUN_OUTPUT,
    },
    // Destructive: a hunk removes and replaces lines.
    annotations: DESTRUCTIVE,
    logFields: (args) => ({ root: args.root, path: args.path }),
    handle: async (args) =>
      withDryRunText(await patchFile.execute(args), (result) => `Would apply ${result.hunks_applied} hunk(s) to ${result.path}${result.created ? ' (a new file)' : ''}.`),
  });
}

export const patchFileSpec = toolSpec({
  name: 'patch_file',
  facts: { toolset: 'root', permission: 'allowlisted', readOnly: false },
  rank: 70,
  useCase: PatchFile,
  create: (services) => new PatchFile(services.access, services.files, services.settings),
  definition: patchFileTool,
});
