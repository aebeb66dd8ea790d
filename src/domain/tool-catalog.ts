import type { ToolFacts, Toolset } from './tool-facts.js';

/**
 * What the domain knows about the tools, as a value: each tool's facts (toolset, permission,
 * read-only) in the order tools/list shows them, and every set the policies need, derived from them.
 * Built from a list of facts, so the list can come from wherever the tools are declared.
 */
export class ToolCatalog {
  /** Every tool name, in catalog order. */
  readonly names: readonly string[];
  /** Every name `allowed_tools` accepts (NFR-025): the `always` and `sharesWith` tools are not among them. */
  readonly allowlistable: ReadonlySet<string>;
  /** Allowlistable tools that act on one configured root. */
  readonly rootScoped: readonly string[];
  /** Allowlistable tools that never change a file (`--read-only`); they match the tools' readOnlyHint. */
  readonly readOnly: readonly string[];
  /** Allowlistable tools that change a root: a read-only principal may use none of them. */
  readonly writing: ReadonlySet<string>;
  private readonly facts: ReadonlyMap<string, ToolFacts>;

  constructor(entries: Iterable<readonly [name: string, facts: ToolFacts]>) {
    const facts = new Map<string, ToolFacts>();
    for (const [name, tool] of entries) {
      if (facts.has(name)) throw new Error(`tool ${name} is in the catalog twice`);
      facts.set(name, tool);
    }
    for (const [name, tool] of facts) {
      const shared = typeof tool.permission === 'object' ? tool.permission.sharesWith : undefined;
      if (shared !== undefined && facts.get(shared)?.permission !== 'allowlisted') {
        throw new Error(`tool ${name} shares the permission of ${shared}, which is not an allowlisted tool`);
      }
    }
    this.facts = facts;
    this.names = [...facts.keys()];
    const allowlisted = this.names.filter((name) => facts.get(name)?.permission === 'allowlisted');
    this.allowlistable = new Set(allowlisted);
    this.rootScoped = allowlisted.filter((name) => facts.get(name)?.toolset === 'root');
    this.readOnly = allowlisted.filter((name) => facts.get(name)?.readOnly === true);
    this.writing = new Set(allowlisted.filter((name) => facts.get(name)?.readOnly === false));
  }

  /** The facts of a tool (undefined for an unknown name). */
  factsOf(tool: string): ToolFacts | undefined {
    return this.facts.get(tool);
  }

  /** The allowlist name that governs `tool` (itself, or the tool whose permission it shares). */
  permissionOf(tool: string): string {
    const permission = this.facts.get(tool)?.permission;
    return typeof permission === 'object' ? permission.sharesWith : tool;
  }

  /** The toolset of any tool (undefined for an unknown name). */
  toolsetOfTool(tool: string): Toolset | undefined {
    return this.facts.get(tool)?.toolset;
  }

  /** The toolset each allowlistable tool belongs to (undefined for the others). */
  toolsetOf(tool: string): Toolset | undefined {
    return this.allowlistable.has(tool) ? this.toolsetOfTool(tool) : undefined;
  }
}
