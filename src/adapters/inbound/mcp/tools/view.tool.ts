import { z } from 'zod';
import type { Settings } from '../../../../domain/settings.js';
import { humanSize } from '../../../../domain/tools/editor-files.js';
import type { View } from '../../../../domain/tools/view.js';
import { defineTool, READ_ONLY, type ToolDefinition } from '../tool-definition.js';
import { NAMESPACE_PATH_HELP, namespaceLogFields } from './namespace-tool-support.js';

export function viewTool(view: View, settings: Settings): ToolDefinition {
  return defineTool({
    name: 'view',
    title: 'View a file or directory',
    description:
      'Look at a file or directory before editing it. A text file comes back as numbered lines ' +
      '("   1\\t<line>"): up to 2000 lines without view_range (then a note with the total, use view_range for ' +
      'the rest); lines over 2000 characters are cut. view_range [start, end] (1-based, inclusive, end -1 = last ' +
      'line) reads just that part, streaming, so it is cheap on big files. Images (PNG, JPEG, GIF, WebP, SVG) come ' +
      `back as an image; other binary files as "Binary file (<size>)". Files over max_file_size (${humanSize(settings.maxFileSize)}) are refused. ` +
      'A directory is listed two levels deep (.git/ and node_modules/ left out, dotfiles shown, symlinks as ' +
      '"name -> target"); `view /` lists the roots. Viewing a file lets this session edit it with str_replace or ' +
      'overwrite it with create_file. ' +
      NAMESPACE_PATH_HELP,
    inputSchema: {
      path: z.string().describe('File or directory to view: /<root>/<path>, or relative to the working directory.'),
      view_range: z
        .array(z.number().int())
        .length(2)
        .optional()
        .describe('Optional [start, end] line range of a text file, 1-based and inclusive; end -1 means the last line. An end past the last line is clamped.'),
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
    },
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
