import { errors } from './errors.js';
import type { Root } from './roots.js';
import { ALL_TOOLS_WILDCARD } from './tool-facts.js';
import type { ToolCatalog } from './tool-catalog.js';

/** Per-root allowlists (FR-002), judged against the tools the catalog holds. */
export class ToolPolicy {
  constructor(readonly catalog: ToolCatalog) {}

  /** Turns a configured list into the set of allowed names; `*` means every allowlistable tool. */
  expand(configured: readonly string[]): ReadonlySet<string> {
    if (configured.includes(ALL_TOOLS_WILDCARD)) return new Set(this.catalog.allowlistable);
    return new Set(configured);
  }

  /** Names in `configured` that are neither a known tool nor the wildcard (typo protection). */
  unknownNames(configured: readonly string[]): string[] {
    return configured.filter((name) => name !== ALL_TOOLS_WILDCARD && !this.catalog.allowlistable.has(name));
  }

  /**
   * Whether a session that sees `roots` can use `tool` on at least one of them: tools/list offers only
   * those. A tool no allowlist governs (list_roots, change_directory) is always usable.
   */
  usableSomewhere(tool: string, roots: readonly Root[]): boolean {
    const governing = this.catalog.permissionOf(tool);
    return !this.catalog.allowlistable.has(governing) || roots.some((root) => root.allowedTools.has(governing));
  }

  /** Whether `tool` changes a root (itself or the tool whose permission it shares). */
  writes(tool: string): boolean {
    return this.catalog.writing.has(this.catalog.permissionOf(tool));
  }

  assertAllowed(tool: string, root: Root): void {
    if (!root.allowedTools.has(tool)) throw errors.toolNotAllowed(tool, root.name);
  }

  /** Security: copy/move read one root and write another, so both allowlists must agree. */
  assertAllowedOnBoth(tool: string, source: Root, destination: Root): void {
    this.assertAllowed(tool, source);
    this.assertAllowed(tool, destination);
  }
}
