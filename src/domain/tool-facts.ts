/** The tool families an operator can expose (`toolsets`). */
export const TOOLSETS = ['root', 'editor', 'repo', 'changes'] as const;
export type Toolset = (typeof TOOLSETS)[number];

/** In `allowed_tools`: every allowlistable tool. */
export const ALL_TOOLS_WILDCARD = '*';

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
