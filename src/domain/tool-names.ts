/** Tools that act on one configured root and can appear in `allowed_tools` (spec 7.2). */
export const ROOT_SCOPED_TOOLS = [
  'list_folder',
  'read_file',
  'write_file',
  'remove_file',
  'patch_file',
  'create_folder',
  'remove_folder',
  'stat_file',
  'hash_file',
  'permissions_file',
  'copy',
  'move',
  'grep',
  'glob',
] as const;

/** Editor and repo tools: one path in the /<root>/... namespace, also governed by allowlists. */
export const NAMESPACE_TOOLS = ['view', 'str_replace', 'create_file', 'file_read', 'file_write', 'file_list'] as const;

/**
 * Every name config validation accepts in `allowed_tools` (NFR-025: a new tool adds its name here).
 * list_roots and change_directory are not among them: they are always available.
 */
export const ALLOWLISTABLE_TOOLS: ReadonlySet<string> = new Set<string>([...ROOT_SCOPED_TOOLS, ...NAMESPACE_TOOLS]);

export const ALL_TOOLS_WILDCARD = '*';

/**
 * Tools that change a root (create, write, remove, move, chmod); a read-only principal may
 * use none of them. copy writes its destination, so it is here too.
 */
export const WRITING_TOOLS: ReadonlySet<string> = new Set<string>([
  'write_file',
  'remove_file',
  'patch_file',
  'create_folder',
  'remove_folder',
  'permissions_file',
  'copy',
  'move',
  'str_replace',
  'create_file',
  'file_write',
]);
