import { z } from 'zod';
import { isReadError, MAX_READ_FILES_PATHS, ReadFiles, type ReadFilesResult } from '../../../../domain/tools/read-files.js';
import { escapedLength } from '../../../../domain/result-budget.js';
import { READ_ONLY, defineTool, type BatchEntryCall, type ToolDefinition } from '../tool-calls/tool-definition.js';
import { toolSpec } from '../tool-calls/tool-spec.js';
import { READ_FILE_OUTPUT, readFileText } from './read-file.tool.js';

export function readFilesTool(readFiles: ReadFiles): ToolDefinition {
  return defineTool({
    name: 'read_files',
    title: 'Read several files',
    description:
      `Read 1-${MAX_READ_FILES_PATHS} files of a root, each as read_file would (same permission). A bad path fails ` +
      'only its entry ({path, error}). One max_result_bytes budget: the file past it is truncated, later ones get ' +
      'RESULT_BUDGET (ask again). A whole read cut short continues by offset_lines.',
    inputSchema: {
      root: z.string(),
      paths: z.array(z.string()).min(1).max(MAX_READ_FILES_PATHS),
      offset_lines: z.number().int().min(1).optional().describe('First line of each, 1-based.'),
      limit_lines: z.number().int().min(1).optional().describe('Lines of each at most.'),
    },
    outputSchema: {
      // One closed object rather than a union (the output check compiles objects): read_file's fields, or error.
      files: z.array(
        z.object({
          ...z.object(READ_FILE_OUTPUT).partial().shape,
          path: z.string(),
          error: z.object({ code: z.string(), message: z.string() }).optional(),
        }),
      ),
    },
    annotations: READ_ONLY,
    logFields: (args) => ({ root: args.root }),
    handle: async (args, context) => {
      const entries: BatchEntryCall[] = [];
      let settled = performance.now();
      const result = await readFiles.execute(args, context.work, (entry, cause) => {
        const now = performance.now();
        const failed = isReadError(entry);
        entries.push({
          path: entry.path,
          error: failed ? { code: entry.error.code, text: `${entry.error.code}: ${entry.error.message}`, cause } : undefined,
          durationMs: now - settled,
          responseBytes: escapedLength(entry.path) + (failed ? escapedLength(entry.error.message) : escapedLength(entry.content)),
        });
        settled = now;
      });
      return { structured: { ...result }, text: readFilesText(result), isError: result.files.every(isReadError), entries };
    },
  });
}

/** Each file as `head` shows several: `==> path <==`, then its text (or `ERROR CODE: message`). */
export function readFilesText(result: ReadFilesResult): string {
  return result.files
    .map((entry) => {
      const body = isReadError(entry) ? `ERROR ${entry.error.code}: ${entry.error.message}` : readFileText(entry, 'read_file ').join('\n');
      return `==> ${entry.path} <==\n${body}${body.endsWith('\n') ? '' : '\n'}`;
    })
    .join('\n');
}

export const readFilesSpec = toolSpec({
  name: 'read_files',
  facts: { toolset: 'root', permission: { sharesWith: 'read_file' }, readOnly: true },
  rank: 40,
  useCase: ReadFiles,
  create: (services) => new ReadFiles(services.access, services.readFile, services.settings),
  definition: readFilesTool,
});
