import { z } from 'zod';
import type { ToolLogFields } from '../tool-calls/tool-definition.js';
import type { ToolServices } from '../tool-calls/tool-spec.js';

/** Sentence shared by every namespace tool description: how `path` is read. */
export const NAMESPACE_PATH_HELP =
  'Paths: /<root>/<path> or cwd-relative.';

/** The call log names the root when the path names one (a relative path's root depends on the cwd). */
export function namespaceLogFields(path: string | undefined): ToolLogFields {
  if (path === undefined) return {};
  const root = path.startsWith('/') ? path.split('/').find((segment) => segment !== '' && segment !== '.') : undefined;
  return root === undefined ? { path } : { root, path };
}

/** create_file and file_write take and return the same thing; they differ only in the view gate. */
export const WHOLE_FILE_WRITE_INPUT = {
  path: z.string(),
  content: z.string().describe('The complete new content.'),
};

export const WHOLE_FILE_WRITE_OUTPUT = {
  path: z.string().describe('Namespace path of the written file.'),
  size: z.number().int().describe('Bytes written.'),
  created: z.boolean().describe('True for a new file, false when an existing file was overwritten.'),
};

/** The services a NamespaceUseCase is built from, in its constructor's order. */
export const namespaceServices = (services: ToolServices) =>
  [services.namespace, services.sessions, services.files, services.hasher, services.settings] as const;
