import { ToolCatalog } from './tool-catalog.js';
import type { ToolFacts, Toolset } from './tool-facts.js';

export { TOOLSETS, type ToolFacts, type ToolPermission, type Toolset } from './tool-facts.js';

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

/** The catalog as a value; every export below is read from it. */
export const TOOLS = new ToolCatalog(Object.entries(TOOL_CATALOG));

/** Every tool name, in catalog order. */
export const TOOL_NAMES = TOOLS.names as readonly ToolName[];

/** Tools that act on one configured root and can appear in `allowed_tools`. */
export const ROOT_SCOPED_TOOLS: readonly string[] = TOOLS.rootScoped;

/**
 * Every name config validation accepts in `allowed_tools` (NFR-025). The `always` and
 * `sharesWith` tools are not among them.
 */
export const ALLOWLISTABLE_TOOLS: ReadonlySet<string> = TOOLS.allowlistable;

/** The allowlist name that governs `tool` (itself, or the tool whose permission it shares). */
export const permissionOf = (tool: string): string => TOOLS.permissionOf(tool);

export const ALL_TOOLS_WILDCARD = '*';

/** The toolset of any tool (undefined for an unknown name). */
export const toolsetOfTool = (tool: string): Toolset | undefined => TOOLS.toolsetOfTool(tool);

/** The toolset each allowlistable tool belongs to (undefined for the others). */
export const toolsetOf = (tool: string): Toolset | undefined => TOOLS.toolsetOf(tool);

/** Allowlistable tools that never change a file (`--read-only`); they match the tools' readOnlyHint. */
export const READ_ONLY_TOOLS: readonly string[] = TOOLS.readOnly;

/**
 * Tools that change a root (create, write, remove, move, copy's destination): every allowlistable
 * tool that is not read-only. A read-only principal (token or claim) may use none of them.
 */
export const WRITING_TOOLS: ReadonlySet<string> = TOOLS.writing;
