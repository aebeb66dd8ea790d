import { z } from 'zod';
import type { Settings } from '../../../../domain/settings.js';
import { formatSize } from '../../../../domain/tools/file-text.js';
import { ReadFile } from '../../../../domain/tools/read-file.js';
import { READ_ONLY, defineTool, type ToolDefinition } from '../tool-calls/tool-definition.js';
import { toolSpec } from '../tool-calls/tool-spec.js';

/** What read_file returns; read_files returns one of these per file read. */
export const READ_FILE_OUTPUT = {
  path: z.string(),
  content: z.string(),
  size: z.number(),
  truncated: z.boolean(),
  encoding: z.enum(['utf-8', 'base64']),
  binary: z.boolean(),
  lines_total: z.number().optional(),
  next_offset_bytes: z.number().optional(),
  next_offset_lines: z.number().optional(),
};

export function readFileTool(readFile: ReadFile, settings: Settings): ToolDefinition {
  const fullReadLimit = formatSize(settings.maxFullReadSize);
  // A window reads up to max(max_full_read_size, max_file_size) bytes, and returns what of it fits in max_result_bytes.
  const ceiling = Math.max(settings.maxFullReadSize, settings.maxFileSize);
  const windowLimit = settings.maxResultBytes < ceiling ? `${formatSize(settings.maxResultBytes)} (max_result_bytes, escaped)` : formatSize(ceiling);
  return defineTool({
    name: 'read_file',
    title: 'Read file',
    description:
      'Read a file in a root as raw text. Whole reads: up to max_full_read_size ' +
      `(${fullReadLimit}), else FILE_TOO_LARGE. Windows: offset_bytes/limit_bytes OR offset_lines/limit_lines (1-based), ` +
      `at most ${fullReadLimit} without a limit, ${windowLimit} with; past that it stops with ` +
      "truncated and next_offset_bytes/next_offset_lines. Binary or non-UTF-8: base64.",
    inputSchema: {
      root: z.string(),
      path: z.string(),
      offset_bytes: z.number().int().min(0).optional().describe('Byte offset, 0-based.'),
      limit_bytes: z.number().int().min(1).optional().describe('Bytes to return at most.'),
      offset_lines: z.number().int().min(1).optional().describe('First line, 1-based.'),
      limit_lines: z.number().int().min(1).optional().describe('Lines to return at most.'),
    },
    outputSchema: READ_FILE_OUTPUT,
    annotations: READ_ONLY,
    toText: readFileText,
    logFields: (args) => ({ root: args.root, path: args.path }),
    handle: async (args, context) => ({ structured: { ...(await readFile.execute(args, context.work)) } }),
  });
}

type ReadFileStructured = Awaited<ReturnType<ReadFile['execute']>>;

/**
 * The raw text of the window, as the model would quote it; base64 windows get a one-line note
 * first. A window that stops early gets a second block saying where to continue; `byteReader`
 * names the tool that takes offset_bytes when the caller (read_files) does not.
 */
export function readFileText(result: ReadFileStructured, byteReader = ''): string[] {
  const blocks =
    result.encoding === 'base64'
      ? [`Binary content of ${result.path} (${formatSize(result.size)} file), base64:\n${result.content}`]
      : [result.content === '' ? `(no content: ${result.path} is ${formatSize(result.size)}; nothing at this offset)` : result.content];
  if (result.next_offset_bytes !== undefined) blocks.push(`[truncated: continue with ${byteReader}offset_bytes ${result.next_offset_bytes} (file size ${result.size} bytes)]`);
  else if (result.next_offset_lines !== undefined) blocks.push(`[truncated: continue with offset_lines ${result.next_offset_lines} (${result.lines_total} lines in all)]`);
  return blocks;
}

export const readFileSpec = toolSpec({
  name: 'read_file',
  facts: { toolset: 'root', permission: 'allowlisted', readOnly: true },
  rank: 30,
  useCase: ReadFile,
  create: (services) => new ReadFile(services.access, services.files, services.settings),
  definition: readFileTool,
});
