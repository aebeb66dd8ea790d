import { z } from 'zod';
import { MAX_PATTERN_CHARS } from '../../../../domain/search/pattern-length.js';
import type { FileList } from '../../../../domain/tools/file-list.js';
import { defineTool, READ_ONLY, type ToolDefinition } from '../tool-definition.js';
import { NAMESPACE_PATH_HELP, namespaceLogFields } from './namespace-tool-support.js';

export function fileListTool(fileList: FileList): ToolDefinition {
  return defineTool({
    name: 'file_list',
    title: 'List a directory',
    description:
      'List the immediate entries of a directory (not recursive) with type, size and modification time, sorted by ' +
      'name; `/` lists the roots. pattern filters entry names with a glob (`*.ts`, `test_*`, `{a,b}*`, `[!.]*`, ' +
      '`@(a|b).ts`; `*` also matches dotfiles; `!(a)` is not supported). Symlinks are listed with their target, not followed. ' +
      NAMESPACE_PATH_HELP,
    inputSchema: {
      path: z.string().optional().describe('Directory to list: /<root>/<path>, or relative to the working directory (default: the working directory).'),
      pattern: z
        .string()
        .max(MAX_PATTERN_CHARS)
        .optional()
        .describe(`Optional glob matched against each entry name, e.g. "*.go". At most ${MAX_PATTERN_CHARS} characters.`),
    },
    outputSchema: {
      path: z.string().describe('Namespace path of the listed directory.'),
      entries: z.array(
        z.object({
          name: z.string(),
          path: z.string().describe('Namespace path of the entry.'),
          type: z.enum(['file', 'directory', 'symlink', 'other']),
          size: z.number().int().describe('Bytes.'),
          modified_at: z.string().describe('ISO 8601.'),
          target: z.string().optional().describe('Symlink target: a namespace path when it lies inside a root, otherwise the marker [outside the root] or [link loop] (host paths are never shown).'),
        }),
      ),
      count: z.number().int(),
    },
    annotations: READ_ONLY,
    logFields: (args) => namespaceLogFields(args.path),
    handle: async (args, context) => ({
      structured: { ...(await fileList.execute({ sessionId: context.sessionId, ...args })) },
    }),
  });
}
