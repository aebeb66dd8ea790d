import { errors } from './errors.js';
import type { Root } from './roots.js';
import { ALLOWLISTABLE_TOOLS, ALL_TOOLS_WILDCARD, permissionOf } from './tool-names.js';

/** Per-root allowlists (FR-002). */
export class ToolPolicy {
  /** Turns a configured list into the set of allowed names; `*` means every allowlistable tool. */
  static expand(configured: readonly string[]): ReadonlySet<string> {
    if (configured.includes(ALL_TOOLS_WILDCARD)) return new Set(ALLOWLISTABLE_TOOLS);
    return new Set(configured);
  }

  /** Names in `configured` that are neither a known tool nor the wildcard (typo protection). */
  static unknownNames(configured: readonly string[]): string[] {
    return configured.filter((name) => name !== ALL_TOOLS_WILDCARD && !ALLOWLISTABLE_TOOLS.has(name));
  }

  /**
   * Whether a session that sees `roots` can use `tool` on at least one of them: tools/list offers only
   * those. A tool no allowlist governs (list_roots, change_directory) is always usable.
   */
  static usableSomewhere(tool: string, roots: readonly Root[]): boolean {
    const governing = permissionOf(tool);
    return !ALLOWLISTABLE_TOOLS.has(governing) || roots.some((root) => root.allowedTools.has(governing));
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
