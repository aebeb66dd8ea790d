import type { Root } from '../domain/roots.js';
import { ToolPolicy } from '../domain/tool-policy.js';
import type { ToolCatalog } from '../domain/tool-catalog.js';
import { TOOLSETS, type Toolset } from '../domain/tool-facts.js';
import type { AppConfig, RootConfig } from './app-config.js';

/** The toolsets served: as configured (all by default), without changes while the journal is off. */
export function servedToolsets(config: Pick<AppConfig, 'toolsets' | 'journal'>): Toolset[] {
  return (config.toolsets ?? TOOLSETS).filter((toolset) => toolset !== 'changes' || config.journal !== undefined);
}

/**
 * Configured (or client-shared) roots as the domain sees them, each allowlist expanded over the
 * catalog's tools and cut to the enabled toolsets.
 */
export function domainRootsOf(roots: readonly RootConfig[], tools: ToolCatalog, toolsets: readonly Toolset[] = TOOLSETS): Root[] {
  const enabled = new Set<Toolset>(toolsets);
  const policy = new ToolPolicy(tools);
  return roots.map((root) => {
    // A tool of a disabled toolset is not served, so no root claims to allow it; nor a write tool an archive.
    const allowedTools = [...policy.expand(root.allowedTools)].filter(
      (tool) => enabled.has(tools.toolsetOf(tool) ?? 'root') && !(root.archive === true && tools.writing.has(tool)),
    );
    if (root.archive !== true) return { name: root.name, hostPath: root.path, allowedTools: new Set(allowedTools), configuredTools: [...root.allowedTools] };
    // list_roots shows what an archive root really allows: its reads.
    return { name: root.name, hostPath: root.path, allowedTools: new Set(allowedTools), configuredTools: allowedTools, readOnly: true };
  });
}
