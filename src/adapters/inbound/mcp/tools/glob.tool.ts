import { z } from 'zod';
import { MAX_PATTERN_CHARS } from '../../../../domain/search/pattern-length.js';
import type { Settings } from '../../../../domain/settings.js';
import { TYPE_FILTERS, type Glob } from '../../../../domain/tools/glob.js';
import { READ_ONLY, defineTool, type ToolDefinition } from '../tool-definition.js';
import { searchLimitFields } from './search-limits.schema.js';

export function globTool(glob: Glob, limits: Settings['search']): ToolDefinition {
  return defineTool({
    name: 'glob',
    title: 'Find files by name',
    description:
      'Find files, directories and symlinks below a directory of a root whose path matches a glob `pattern` or a ' +
      '`regex` (give exactly one). `root` names a configured root (see list_roots). Both are matched against the ' +
      'path relative to `path`: in a glob, `*` stays within one directory level and `**` spans any number of ' +
      'them, so "*.go" finds Go files directly in `path` only and "**/*.go" finds them at every depth; dot files ' +
      'match. A regex (RE2/Go syntax) matches anywhere in the relative path unless anchored with ^ and $. ' +
      'Symlinks are listed but never followed. Results are sorted by path; each `path` is relative to the ROOT ' +
      '(not to `path`) so it can be passed to other tools, with `type` (file, directory, symlink or other), `size` ' +
      'in bytes and `modified_at` (ISO 8601). `truncated`=true means more entries match beyond `max_results`; ' +
      '`timed_out`=true means the search stopped at the deadline and the results are partial.',
    inputSchema: {
      root: z.string().describe('Name of the root to search (see list_roots).'),
      pattern: z
        .string()
        .max(MAX_PATTERN_CHARS)
        .optional()
        .describe(
          'Glob with ** support, e.g. "**/*.ts", "src/*/index.js", "*.{yml,yaml}". Also ?, [abc], [!a-z], ' +
            '\\ to escape, and the extglobs @(a|b), ?(a), *(a), +(a); !(a) is not supported. ' +
            `At most ${MAX_PATTERN_CHARS} characters. Give this or \`regex\`.`,
        ),
      regex: z
        .string()
        .max(MAX_PATTERN_CHARS)
        .optional()
        .describe(
          'Regular expression (RE2 syntax) searched in each relative path, e.g. "test_\\d+\\.go$". ' +
            `At most ${MAX_PATTERN_CHARS} characters. Give this or \`pattern\`.`,
        ),
      path: z.string().optional().describe('Directory to search, relative to the root. Default "." (the whole root).'),
      type_filter: z
        .string()
        .optional()
        .describe(`Only return entries of this type: one of ${TYPE_FILTERS.join(', ')}. Default all.`),
      ...searchLimitFields(limits, 'entries'),
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
    },
    annotations: READ_ONLY,
    logFields: (args) => ({ root: args.root, path: args.path ?? '.' }),
    handle: async (args) => ({ structured: { ...(await glob.execute(args)) } }),
  });
}
