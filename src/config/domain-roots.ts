import type { Root } from '../domain/roots.js';
import { ToolPolicy } from '../domain/tool-policy.js';
import { TOOLSETS, toolsetOf, type Toolset, WRITING_TOOLS } from '../domain/tool-names.js';
import type { AppConfig, RootConfig } from './app-config.js';

/** The toolsets served: as configured (all by default), without changes while the journal is off. */
export function servedToolsets(config: Pick<AppConfig, 'toolsets' | 'journal'>): Toolset[] {
  return (config.toolsets ?? TOOLSETS).filter((toolset) => toolset !== 'changes' || config.journal !== undefined);
}

/** Configured (or client-shared) roots as the domain sees them, each allowlist expanded and cut to the enabled toolsets. */
export function domainRootsOf(roots: readonly RootConfig[], toolsets: readonly Toolset[] = TOOLSETS): Root[] {
  const enabled = new Set<Toolset>(toolsets);
  return roots.map((root) => {
    // A tool of a disabled toolset is not served, so no root claims to allow it; nor a write tool an archive.
    const allowedTools = [...ToolPolicy.expand(root.allowedTools)].filter(
      (tool) => enabled.has(toolsetOf(tool) ?? 'root') && !(root.archive === true && WRITING_TOOLS.has(tool)),
    );
    if (root.archive !== true) return { name: root.name, hostPath: root.path, allowedTools: new Set(allowedTools), configuredTools: [...root.allowedTools] };
    // list_roots shows what an archive root really allows: its reads.
    return { name: root.name, hostPath: root.path, allowedTools: new Set(allowedTools), configuredTools: allowedTools, readOnly: true };
  });
}
