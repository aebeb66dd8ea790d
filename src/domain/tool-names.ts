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
 * The change journal's tools (issue 20) that a root must allow: undo_changes writes. list_changes
 * is not allowlisted: it shows a caller its own changes on any root where it may use some tool.
 */
export const CHANGE_TOOLS = ['undo_changes'] as const;

/**
 * Every name config validation accepts in `allowed_tools` (NFR-025: a new tool adds its name here).
 * list_roots, change_directory and list_changes are not among them: they are always available.
 */
export const ALLOWLISTABLE_TOOLS: ReadonlySet<string> = new Set<string>([...ROOT_SCOPED_TOOLS, ...NAMESPACE_TOOLS, ...CHANGE_TOOLS]);

/**
 * Tools that have no allowlist name of their own and share another tool's permission: read_files
 * reads exactly what read_file may read, so an allowlist naming read_file allows both.
 */
const SHARED_PERMISSION: Readonly<Record<string, string>> = { read_files: 'read_file' };

/** The allowlist name that governs `tool` (itself, or the tool whose permission it shares). */
export function permissionOf(tool: string): string {
  return SHARED_PERMISSION[tool] ?? tool;
}

export const ALL_TOOLS_WILDCARD = '*';

/** The tool families an operator can expose (`toolsets`); list_roots is in root, change_directory in editor, list_changes in changes. */
export const TOOLSETS = ['root', 'editor', 'repo', 'changes'] as const;
export type Toolset = (typeof TOOLSETS)[number];

/** The toolset each allowlistable tool belongs to. */
export function toolsetOf(tool: string): Toolset | undefined {
  if ((ROOT_SCOPED_TOOLS as readonly string[]).includes(tool)) return 'root';
  if (['view', 'str_replace', 'create_file'].includes(tool)) return 'editor';
  if (['file_read', 'file_write', 'file_list'].includes(tool)) return 'repo';
  if ((CHANGE_TOOLS as readonly string[]).includes(tool)) return 'changes';
  return undefined;
}

/** Allowlistable tools that never change a file (`--read-only`); they match the tools' readOnlyHint. */
export const READ_ONLY_TOOLS: readonly string[] = [
  'list_folder',
  'read_file',
  'stat_file',
  'hash_file',
  'permissions_file',
  'grep',
  'glob',
  'view',
  'file_read',
  'file_list',
];

/**
 * Tools that change a root (create, write, remove, move, copy's destination): every allowlistable
 * tool but the read-only ones, so a new tool counts as writing until it is listed as read-only.
 * A read-only principal (token or claim) may use none of them.
 */
export const WRITING_TOOLS: ReadonlySet<string> = new Set<string>([...ALLOWLISTABLE_TOOLS].filter((tool) => !READ_ONLY_TOOLS.includes(tool)));
