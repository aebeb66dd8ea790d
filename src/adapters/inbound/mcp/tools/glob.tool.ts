import { z } from 'zod';
import { MAX_PATTERN_CHARS } from '../../../../domain/search/pattern-length.js';
import type { Settings } from '../../../../domain/settings.js';
import { TYPE_FILTERS, Glob } from '../../../../domain/tools/glob.js';
import { READ_ONLY, defineTool, type ToolDefinition } from '../tool-calls/tool-definition.js';
import { toolSpec } from '../tool-calls/tool-spec.js';
import { globText } from './glob-text.js';
import { ignoreField, searchLimitFields } from './search-limits.schema.js';

export function globTool(glob: Glob, limits: Settings['search']): ToolDefinition {
  return defineTool({
    name: 'glob',
    title: 'Find files by name',
    description:
      'Find entries below `path` whose path relative to `path` matches a glob `pattern` (`*` one level, `**` any; ' +
      'dot files match) or an RE2 `regex`, one of the two. Links not followed. Sorted; paths relative to the ROOT. ' +
      'truncated: past max_results; timed_out: partial.',
    inputSchema: {
      root: z.string(),
      pattern: z
        .string()
        .max(MAX_PATTERN_CHARS)
        .optional()
        .describe(
`Glob ("**/*.ts", "*.{yml,yaml}"; extglobs but no !(a)).`,
        ),
      regex: z
        .string()
        .max(MAX_PATTERN_CHARS)
        .optional()
        .describe(
`RE2 regex on the relative path ("_test\\.go$").`,
        ),
      path: z.string().optional().describe('Directory in the root (default ".").'),
      type_filter: z
        .string()
        .optional()
        .describe(`${TYPE_FILTERS.join(', ')} (default all).`),
      ...searchLimitFields(limits, 'entries'),
      ignore: ignoreField(limits),
    },
    outputSchema: {
      matches: z.array(
        z.object({
          path: z.string(),
          type: z.enum(['file', 'directory', 'symlink', 'other']),
          size: z.number(),
          modified_at: z.string(),
        }),
      ),
      total_matches: z.number(),
      truncated: z.boolean(),
      timed_out: z.boolean(),
      ignored: z.number().optional(),
    },
    annotations: READ_ONLY,
    toText: globText,
    logFields: (args) => ({ root: args.root, path: args.path ?? '.' }),
    handle: async (args, context) => ({ structured: { ...(await glob.execute(args, context.work)) } }),
  });
}

export const globSpec = toolSpec({
  name: 'glob',
  facts: { toolset: 'root', permission: 'allowlisted', readOnly: true },
  rank: 160,
  useCase: Glob,
  create: (services) => new Glob(services.files, services.clock, services.regex, services.settings, services.access, services.ignoreCache, services.searchIndexes, services.treeSnapshots),
  definition: (useCase, settings) => globTool(useCase, settings.search),
});
