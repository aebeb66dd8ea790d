import { z } from 'zod';
import { MAX_CONTEXT_LINES, MAX_RETURNED_LINE_CHARS } from '../../../../domain/search/match-text.js';
import { MAX_PATTERN_CHARS } from '../../../../domain/search/pattern-length.js';
import type { Settings } from '../../../../domain/settings.js';
import { formatSize } from '../../../../domain/tools/file-text.js';
import type { Grep } from '../../../../domain/tools/grep.js';
import { READ_ONLY, defineTool, type ToolDefinition } from '../tool-definition.js';
import { searchLimitFields } from './search-limits.schema.js';

export function grepTool(grep: Grep, settings: Settings): ToolDefinition {
  return defineTool({
    name: 'grep',
    title: 'Search file contents',
    description:
      'Search the lines of files below a directory of a root for a regular expression (RE2/Go syntax: no lookaround ' +
      'or backreferences; matching runs in linear time). `root` names a configured root (see list_roots). Searches ' +
      'recursively from `path`, or just that file if `path` is a file. Files with a NUL byte in their first 8 KB are ' +
      'treated as binary and skipped; symlinks are not followed; only the first 1 MiB of a very long line is searched. ' +
      'Each match gives `file` (relative to the ROOT, not to `path`, so it can be passed to other tools), ' +
      '`line_number` (1-based), `line_content` and up to `context_lines` lines before and after ' +
      `(at most ${MAX_CONTEXT_LINES}). A returned line longer than ${MAX_RETURNED_LINE_CHARS} characters is cut and ends ` +
      'with "... [truncated, N chars total]". Matches come in ' +
      'walk order (depth-first, names in Unicode code point order), not re-sorted. `total_matches` is ' +
      'the number of matches returned; `files_searched` counts text files read. `truncated`=true means more ' +
      `matches exist beyond \`max_results\`, or the result reached max_result_bytes (${formatSize(settings.maxResultBytes)} of JSON) ` +
      '(narrow the search or lower `context_lines`); `timed_out`=true means the search stopped at the deadline and the ' +
      'results are partial.',
    inputSchema: {
      root: z.string().describe('Name of the root to search (see list_roots).'),
      pattern: z
        .string()
        .min(1)
        .max(MAX_PATTERN_CHARS)
        .describe(
          'Regular expression (RE2 syntax), matched anywhere in each line, e.g. "TODO|FIXME" or "func \\w+\\(". ' +
            `At most ${MAX_PATTERN_CHARS} characters.`,
        ),
      path: z
        .string()
        .optional()
        .describe('Directory (or single file) to search, relative to the root. Default "." (the whole root).'),
      glob_filter: z
        .string()
        .max(MAX_PATTERN_CHARS)
        .optional()
        .describe(
          'Only search files matching this glob. Without a "/" it matches the file name at any depth ("*.go", ' +
            '"*.{ts,tsx}"); with a "/" it matches the path relative to `path` ("src/**/*.go"). Dot files match. ' +
            "Same syntax as glob's `pattern` (no !(a)).",
        ),
      case_insensitive: z.boolean().optional().describe('Ignore letter case. Default false.'),
      context_lines: z
        .number()
        .int()
        .min(0)
        .optional()
        .describe(
          `Lines of context to return before and after each match. Default 0; values above ${MAX_CONTEXT_LINES} ` +
            `are lowered to ${MAX_CONTEXT_LINES}.`,
        ),
      ...searchLimitFields(settings.search, 'matching lines'),
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
    },
    annotations: READ_ONLY,
    logFields: (args) => ({ root: args.root, path: args.path ?? '.' }),
    handle: async (args) => ({ structured: { ...(await grep.execute(args)) } }),
  });
}
