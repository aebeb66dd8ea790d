import { TOOL_NAMES } from '../../../../domain/tool-names.js';
import type { ToolSpec } from './tool-spec.js';

/** One discovered spec file: its name in tools/ and the module it exports. */
export type ToolModule = readonly [file: string, exports: Readonly<Record<string, unknown>>];

/** A `*.tool.ts` (or tsc's `*.tool.js`) file in tools/: each holds exactly one tool's spec. */
export const TOOL_FILE = /\.tool\.[jt]s$/;

const isSpec = (value: unknown): value is ToolSpec =>
  typeof value === 'object' && value !== null && typeof (value as ToolSpec).name === 'string' && typeof (value as ToolSpec).create === 'function';

/**
 * Every tool's spec from the modules discovered in tools/, in the catalog's order (the order of
 * tools/list). A spec file must export exactly one spec of a catalogued tool; anything else fails the
 * start-up, naming the file.
 */
export function specsFromModules(modules: readonly ToolModule[]): readonly ToolSpec[] {
  const byName = new Map<string, ToolSpec>();
  for (const [file, exports] of modules) {
    const specs = Object.values(exports).filter(isSpec);
    if (specs.length !== 1) throw new Error(`${file} must export exactly one tool spec (toolSpec({...})); it exports ${specs.length}`);
    const [spec] = specs;
    if (!TOOL_NAMES.includes(spec.name)) throw new Error(`${file}: tool ${spec.name} is not in the domain's tool catalog`);
    if (byName.has(spec.name)) throw new Error(`${file}: tool ${spec.name} has a second spec`);
    byName.set(spec.name, spec);
  }
  const missing = TOOL_NAMES.filter((name) => !byName.has(name));
  if (missing.length > 0) throw new Error(`no spec file in tools/ for ${missing.join(', ')}`);
  return TOOL_NAMES.map((name) => byName.get(name) as ToolSpec);
}
