import type { Root } from '../../src/domain/roots.js';
import { ToolPolicy } from '../../src/domain/tool-policy.js';

/** A Root value for domain tests; `hostPath` is where the adapter under test keeps it. */
export function makeRoot(name: string, hostPath: string, tools: readonly string[] = ['*']): Root {
  return { name, hostPath, allowedTools: ToolPolicy.expand(tools), configuredTools: [...tools] };
}
