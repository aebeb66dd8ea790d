/** The tool families an operator can expose (`toolsets`). */
export const TOOLSETS = ['root', 'editor', 'repo', 'changes'] as const;
export type Toolset = (typeof TOOLSETS)[number];

/**
 * Who may use a tool: `allowlisted` tools have an allowlist name of their own (spec 7.2, config
 * `allowed_tools`); `always` tools are available on every root (list_roots, change_directory,
 * list_changes and review_changes: they show a caller only its own changes); `sharesWith` tools are governed by another
 * tool's name (read_files reads exactly what read_file may read).
 */
export type ToolPermission = 'allowlisted' | 'always' | { readonly sharesWith: string };

/** What the domain and the configuration need to know about a tool; its MCP spec holds the rest. */
export interface ToolFacts {
  readonly toolset: Toolset;
  readonly permission: ToolPermission;
  /** Never changes a file (`--read-only` keeps it); matches the tool's readOnlyHint. */
  readonly readOnly: boolean;
}

/**
 * Every tool, one line each, in the order tools/list shows them. Every set below is derived from
 * it, and the MCP adapter's spec list is typed by its names, so a tool missing either side fails
 * the typecheck.
 */
export const TOOL_CATALOG = {
  list_roots: { toolset: 'root', permission: 'always', readOnly: true },
  list_folder: { toolset: 'root', permission: 'allowlisted', readOnly: true },
  read_file: { toolset: 'root', permission: 'allowlisted', readOnly: true },
  read_files: { toolset: 'root', permission: { sharesWith: 'read_file' }, readOnly: true },
  write_file: { toolset: 'root', permission: 'allowlisted', readOnly: false },
  remove_file: { toolset: 'root', permission: 'allowlisted', readOnly: false },
  patch_file: { toolset: 'root', permission: 'allowlisted', readOnly: false },
  create_folder: { toolset: 'root', permission: 'allowlisted', readOnly: false },
  remove_folder: { toolset: 'root', permission: 'allowlisted', readOnly: false },
  stat_file: { toolset: 'root', permission: 'allowlisted', readOnly: true },
  hash_file: { toolset: 'root', permission: 'allowlisted', readOnly: true },
  permissions_file: { toolset: 'root', permission: 'allowlisted', readOnly: true },
  copy: { toolset: 'root', permission: 'allowlisted', readOnly: false },
  move: { toolset: 'root', permission: 'allowlisted', readOnly: false },
  grep: { toolset: 'root', permission: 'allowlisted', readOnly: true },
  glob: { toolset: 'root', permission: 'allowlisted', readOnly: true },
  view: { toolset: 'editor', permission: 'allowlisted', readOnly: true },
  str_replace: { toolset: 'editor', permission: 'allowlisted', readOnly: false },
  create_file: { toolset: 'editor', permission: 'allowlisted', readOnly: false },
  change_directory: { toolset: 'editor', permission: 'always', readOnly: true },
  file_read: { toolset: 'repo', permission: 'allowlisted', readOnly: true },
  file_write: { toolset: 'repo', permission: 'allowlisted', readOnly: false },
  file_list: { toolset: 'repo', permission: 'allowlisted', readOnly: true },
  list_changes: { toolset: 'changes', permission: 'always', readOnly: true },
  undo_changes: { toolset: 'changes', permission: 'allowlisted', readOnly: false },
  review_changes: { toolset: 'changes', permission: 'always', readOnly: true },
} as const satisfies Record<string, ToolFacts>;

export type ToolName = keyof typeof TOOL_CATALOG;

/** Every tool name, in catalog order. */
export const TOOL_NAMES = Object.keys(TOOL_CATALOG) as readonly ToolName[];

const factsOf = (name: string): ToolFacts | undefined => (Object.hasOwn(TOOL_CATALOG, name) ? TOOL_CATALOG[name as ToolName] : undefined);
const allowlisted = TOOL_NAMES.filter((name) => TOOL_CATALOG[name].permission === 'allowlisted');

/** Tools that act on one configured root and can appear in `allowed_tools`. */
export const ROOT_SCOPED_TOOLS: readonly string[] = allowlisted.filter((name) => TOOL_CATALOG[name].toolset === 'root');

/**
 * Every name config validation accepts in `allowed_tools` (NFR-025). The `always` and
 * `sharesWith` tools are not among them.
 */
export const ALLOWLISTABLE_TOOLS: ReadonlySet<string> = new Set<string>(allowlisted);

/** The allowlist name that governs `tool` (itself, or the tool whose permission it shares). */
export function permissionOf(tool: string): string {
  const permission = factsOf(tool)?.permission;
  return typeof permission === 'object' ? permission.sharesWith : tool;
}

export const ALL_TOOLS_WILDCARD = '*';

/** The toolset of any tool (undefined for an unknown name). */
export function toolsetOfTool(tool: string): Toolset | undefined {
  return factsOf(tool)?.toolset;
}

/** The toolset each allowlistable tool belongs to (undefined for the others). */
export function toolsetOf(tool: string): Toolset | undefined {
  return ALLOWLISTABLE_TOOLS.has(tool) ? toolsetOfTool(tool) : undefined;
}

/** Allowlistable tools that never change a file (`--read-only`); they match the tools' readOnlyHint. */
export const READ_ONLY_TOOLS: readonly string[] = allowlisted.filter((name) => TOOL_CATALOG[name].readOnly);

/**
 * Tools that change a root (create, write, remove, move, copy's destination): every allowlistable
 * tool that is not read-only. A read-only principal (token or claim) may use none of them.
 */
export const WRITING_TOOLS: ReadonlySet<string> = new Set<string>(allowlisted.filter((name) => !TOOL_CATALOG[name].readOnly));
