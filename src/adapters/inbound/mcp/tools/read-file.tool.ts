import { z } from 'zod';
import type { Settings } from '../../../../domain/settings.js';
import { formatSize } from '../../../../domain/tools/file-text.js';
import type { ReadFile } from '../../../../domain/tools/read-file.js';
import { READ_ONLY, defineTool, type ToolDefinition } from '../tool-definition.js';

export function readFileTool(readFile: ReadFile, settings: Settings): ToolDefinition {
  const fullReadLimit = formatSize(settings.maxFullReadSize);
  const responseCeiling = formatSize(Math.max(settings.maxFullReadSize, settings.maxFileSize));
  return defineTool({
    name: 'read_file',
    title: 'Read file',
    description:
      'Read a file in a root, whole or in part. Returns the raw content (no line numbers), `size` (bytes of the whole ' +
      'file), `truncated` (true when more of the file follows what was returned), `encoding` and `binary`. ' +
      `Without offset/limit the whole file is returned, but only up to max_full_read_size (${fullReadLimit}); a larger ` +
      'file fails with FILE_TOO_LARGE and must be read in parts. Read in parts EITHER by bytes (offset_bytes, ' +
      'limit_bytes) OR by lines (offset_lines, 1-based, and limit_lines), never both. Line reads return the lines with ' +
      'their original line endings plus `lines_total`; an offset past the end returns empty content. Without a limit, a ' +
      `partial read returns at most ${fullReadLimit}, and no call returns more than ${responseCeiling}. A file ` +
      'with a NUL byte in its first 8 KB is binary: its content ' +
      "comes back base64-encoded (encoding 'base64', binary true), exactly the requested bytes; text that is not " +
      'valid UTF-8 is also returned as base64. Symlinks inside the root are followed.',
    inputSchema: {
      root: z.string().describe('Name of a configured root (see list_roots).'),
      path: z.string().describe('File path relative to the root.'),
      offset_bytes: z.number().int().min(0).optional().describe('Byte offset to start at (0-based). Not with offset_lines/limit_lines.'),
      limit_bytes: z.number().int().min(1).optional().describe('Maximum number of bytes to return. Not with offset_lines/limit_lines.'),
      offset_lines: z.number().int().min(1).optional().describe('First line to return, 1-based. Not with offset_bytes/limit_bytes.'),
      limit_lines: z.number().int().min(1).optional().describe('Maximum number of lines to return. Not with offset_bytes/limit_bytes.'),
    },
    outputSchema: {
      path: z.string(),
      content: z.string(),
      size: z.number(),
      truncated: z.boolean(),
      encoding: z.enum(['utf-8', 'base64']),
      binary: z.boolean(),
      lines_total: z.number().optional(),
      next_offset_bytes: z.number().optional(),
      next_offset_lines: z.number().optional(),
    },
    annotations: READ_ONLY,
    toText: readFileText,
    logFields: (args) => ({ root: args.root, path: args.path }),
    handle: async (args) => ({ structured: { ...(await readFile.execute(args)) } }),
  });
}

type ReadFileStructured = Awaited<ReturnType<ReadFile['execute']>>;

/**
 * The raw text of the window, as the model would quote it; base64 windows get a one-line note
 * first. A window that stops early gets a second block saying where to continue.
 */
export function readFileText(result: ReadFileStructured): string[] {
  const blocks =
    result.encoding === 'base64'
      ? [`Binary content of ${result.path} (${formatSize(result.size)} file), base64:\n${result.content}`]
      : [result.content === '' ? `(no content: ${result.path} is ${formatSize(result.size)}; nothing at this offset)` : result.content];
  if (result.next_offset_bytes !== undefined) blocks.push(`[truncated: continue with offset_bytes ${result.next_offset_bytes} (file size ${result.size} bytes)]`);
  else if (result.next_offset_lines !== undefined) blocks.push(`[truncated: continue with offset_lines ${result.next_offset_lines} (${result.lines_total} lines in all)]`);
  return blocks;
}
