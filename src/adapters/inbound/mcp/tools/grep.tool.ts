import { z } from 'zod';
import { MAX_CONTEXT_LINES, MAX_RETURNED_LINE_CHARS } from '../../../../domain/search/match-text.js';
import { MAX_PATTERN_CHARS } from '../../../../domain/search/pattern-length.js';
import type { Settings } from '../../../../domain/settings.js';
import { formatSize } from '../../../../domain/tools/file-text.js';
import { Grep } from '../../../../domain/tools/grep.js';
import { READ_ONLY, defineTool, type ToolDefinition } from '../tool-calls/tool-definition.js';
import { toolSpec } from '../tool-calls/tool-spec.js';
import { grepText } from './grep-text.js';
import { ignoreField, searchLimitFields } from './search-limits.schema.js';

export function grepTool(grep: Grep, settings: Settings): ToolDefinition {
  return defineTool({
    name: 'grep',
    title: 'Search file contents',
    description:
      'Search lines of files below `path` for an RE2 regex (no lookaround); binary files skipped, links not followed. ' +
      `\`file\` is relative to the ROOT; lines cut at ${MAX_RETURNED_LINE_CHARS} chars. truncated: past max_results or ` +
      `max_result_bytes (${formatSize(settings.maxResultBytes)} of JSON); timed_out: partial. Text block as rg prints it.`,
    inputSchema: {
      root: z.string(),
      pattern: z
        .string()
        .min(1)
        .max(MAX_PATTERN_CHARS)
        .describe(
`RE2 regex matched anywhere in a line ("TODO|FIXME").`,
        ),
      path: z
        .string()
        .optional()
        .describe('Directory or file in the root (default ".").'),
      glob_filter: z
        .string()
        .max(MAX_PATTERN_CHARS)
        .optional()
        .describe(
'Glob on file names ("*.{ts,tsx}"), or on the path below `path` if it has a "/".',
        ),
      case_insensitive: z.boolean().optional(),
      context_lines: z
        .number()
        .int()
        .min(0)
        .optional()
        .describe(
`Lines before and after each match (default 0, at most ${MAX_CONTEXT_LINES}).`,
        ),
      ...searchLimitFields(settings.search, 'matching lines'),
      ignore: ignoreField(settings.search),
    },
    outputSchema: {
      matches: z.array(
        z.object({
          file: z.string(),
          line_number: z.number(),
          line_content: z.string(),
          context_before: z.array(z.string()),
          context_after: z.array(z.string()),
        }),
      ),
      total_matches: z.number(),
      files_searched: z.number(),
      truncated: z.boolean(),
      timed_out: z.boolean(),
      ignored: z.number().optional(),
    },
    annotations: READ_ONLY,
    toText: grepText,
    logFields: (args) => ({ root: args.root, path: args.path ?? '.' }),
    handle: async (args, context) => ({ structured: { ...(await grep.execute(args, context.work)) } }),
  });
}

export const grepSpec = toolSpec({
  name: 'grep',
  facts: { toolset: 'root', permission: 'allowlisted', readOnly: true },
  rank: 150,
  useCase: Grep,
  create: (services) => new Grep(services.files, services.clock, services.regex, services.settings, services.access, services.ignoreCache, services.searchIndexes, services.treeSnapshots),
  definition: grepTool,
});
