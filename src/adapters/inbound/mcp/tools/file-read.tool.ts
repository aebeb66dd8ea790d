import { z } from 'zod';
import type { Settings } from '../../../../domain/settings.js';
import { humanSize } from '../../../../domain/tools/editor-files.js';
import { lossyNote } from '../../../../domain/tools/file-text.js';
import { FileRead, type FileReadResult } from '../../../../domain/tools/file-read.js';
import { defineTool, READ_ONLY, type ToolDefinition } from '../tool-calls/tool-definition.js';
import { toolSpec } from '../tool-calls/tool-spec.js';
import { NAMESPACE_PATH_HELP, namespaceLogFields, namespaceServices } from './namespace-tool-support.js';

export function fileReadTool(fileRead: FileRead, settings: Settings): ToolDefinition {
  return defineTool({
    name: 'file_read',
    title: 'Read a whole file',
    description:
      'A whole text file (no line numbers). FILE_TOO_LARGE over max_full_read_size ' +
      `(${humanSize(settings.maxFullReadSize)}): use view with view_range. Binary: no content, binary true. Past ` +
      'max_result_bytes: stops at a line end, truncated + next_line. Invalid UTF-8: lossy. ' +
      NAMESPACE_PATH_HELP,
    inputSchema: {
      path: z.string(),
    },
    outputSchema: {
      path: z.string().describe('Namespace path of the file.'),
      content: z.string().describe('The file contents (UTF-8); empty for a binary file.'),
      size: z.number().int().describe('File size in bytes.'),
      binary: z.boolean().describe('True when the file looks binary (a NUL byte in its first 8 KB).'),
      truncated: z.boolean().optional().describe('Present and true when the content stops early (it would not fit in one result).'),
      next_line: z.number().int().optional().describe('With truncated: the first line not returned (continue with view view_range).'),
      lossy: z.boolean().optional().describe('Present and true when the file is not valid UTF-8: undecodable bytes are shown as U+FFFD.'),
    },
    stateHandle: 'mints',
    annotations: READ_ONLY,
    toText: fileReadText,
    logFields: (args) => namespaceLogFields(args.path),
    handle: async (args, context) => {
      const outcome = await fileRead.execute({ sessionId: context.sessionId, path: args.path });
      return { structured: { ...outcome.result } };
    },
  });
}

/** The file's raw text; a binary file gets a one-line note; a cut file a block saying how to go on; a lossy one a block saying so. */
export function fileReadText(result: FileReadResult): string[] {
  if (result.binary) return [`Binary file (${humanSize(result.size)}), content not shown: ${result.path}`];
  const lossy = result.lossy ? [lossyNote(result.path)] : [];
  if (result.next_line === undefined) return [result.content, ...lossy];
  return [result.content, `[truncated: continue with view view_range [${result.next_line}, -1]]`, ...lossy];
}

export const fileReadSpec = toolSpec({
  name: 'file_read',
  facts: { toolset: 'repo', permission: 'allowlisted', readOnly: true },
  rank: 10,
  useCase: FileRead,
  create: (services) => new FileRead(...namespaceServices(services)),
  definition: fileReadTool,
});
