import { z } from 'zod';
import type { Settings } from '../../../../domain/settings.js';
import { humanSize } from '../../../../domain/tools/editor-files.js';
import { View } from '../../../../domain/tools/view.js';
import { defineTool, READ_ONLY, type ToolDefinition } from '../tool-calls/tool-definition.js';
import { toolSpec } from '../tool-calls/tool-spec.js';
import { NAMESPACE_PATH_HELP, namespaceLogFields, namespaceServices } from './namespace-tool-support.js';

export function viewTool(view: View, settings: Settings): ToolDefinition {
  return defineTool({
    name: 'view',
    title: 'View a file or directory',
    description:
      'View a file before editing it: numbered lines ("   1\\t<line>"), at most 2000 without view_range, each cut ' +
      'at 2000 chars, noted when more follows. Images as images, other binary as a note, invalid UTF-8 lossy. ' +
      `FILE_TOO_LARGE over max_file_size (${humanSize(settings.maxFileSize)}). Directories: two levels; \`view /\`: the roots. ` +
      NAMESPACE_PATH_HELP,
    inputSchema: {
      path: z.string().describe('File or directory.'),
      view_range: z
        .array(z.number().int())
        .length(2)
        .optional()
        .describe('[start, end] lines, 1-based, inclusive; end -1 = last line.'),
    },
    outputSchema: {
      path: z.string().describe('Namespace path that was viewed.'),
      type: z.enum(['text', 'image', 'binary', 'directory', 'roots']),
      size: z.number().int().optional().describe('File size in bytes.'),
      start_line: z.number().int().optional(),
      end_line: z.number().int().optional(),
      total_lines: z.number().int().optional().describe('Lines in the file, when the view read it to the end.'),
      truncated: z.boolean().optional().describe('True when lines or entries were left out.'),
      mime_type: z.string().optional(),
      entries: z.number().int().optional().describe('Entries shown in a directory listing.'),
      lossy: z.boolean().optional().describe('Present and true when the file is not valid UTF-8: undecodable bytes are shown as U+FFFD.'),
    },
    stateHandle: 'mints',
    annotations: READ_ONLY,
    logFields: (args) => namespaceLogFields(args.path),
    handle: async (args, context) => {
      const outcome = await view.execute({ sessionId: context.sessionId, path: args.path, view_range: args.view_range });
      const image = outcome.image && {
        data: Buffer.from(outcome.image.bytes.buffer, outcome.image.bytes.byteOffset, outcome.image.bytes.length).toString('base64'),
        mimeType: outcome.image.mimeType,
      };
      return { structured: { ...outcome.summary }, text: outcome.text, image };
    },
  });
}

export const viewSpec = toolSpec({
  name: 'view',
  facts: { toolset: 'editor', permission: 'allowlisted', readOnly: true },
  rank: 10,
  useCase: View,
  create: (services) => new View(...namespaceServices(services)),
  definition: viewTool,
});
