import type { Root } from '../../src/domain/roots.js';
import { toolPolicy } from './tools.js';

/** A Root value for domain tests; `hostPath` is where the adapter under test keeps it. */
export function makeRoot(name: string, hostPath: string, tools: readonly string[] = ['*']): Root {
  return { name, hostPath, allowedTools: toolPolicy().expand(tools), configuredTools: [...tools] };
}
