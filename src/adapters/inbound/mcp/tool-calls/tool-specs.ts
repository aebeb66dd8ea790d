import { readdirSync } from 'node:fs';
import type { ToolSpec } from './tool-spec.js';
import { TOOL_FILE, specsFromModules, type ToolModule } from './tool-registry.js';

// Every `*.tool.ts` file in tools/ is a tool: no list names them. Under tsc and Jest the files are
// found here at load time; the esbuild bundle (scripts/build.mjs, plugin `discovered-tools`) replaces
// this module with static imports of the same files, so the bundle holds them all.
const TOOLS = new URL('../tools/', import.meta.url);
const files = readdirSync(TOOLS)
  .filter((file) => TOOL_FILE.test(file))
  .sort();
// One at a time: Jest's ESM loader fails on concurrent imports of modules that share dependencies.
const modules: ToolModule[] = [];
for (const file of files) modules.push([file, await import(`../tools/${file.replace(TOOL_FILE, '.tool.js')}`)]);

/** Every tool's spec, in the order of tools/list (toolset, then rank). */
export const TOOL_SPECS: readonly ToolSpec[] = specsFromModules(modules);
