import { ToolCatalog } from '../../../../domain/tool-catalog.js';
import { TOOLSETS } from '../../../../domain/tool-facts.js';
import type { Settings } from '../../../../domain/settings.js';
import type { ToolDefinition } from './tool-definition.js';
import type { ToolSpec } from './tool-spec.js';

/** One discovered spec file: its name in tools/ and the module it exports. */
export type ToolModule = readonly [file: string, exports: Readonly<Record<string, unknown>>];

/** A `*.tool.ts` (or tsc's `*.tool.js`) file in tools/: each holds exactly one tool's spec. */
export const TOOL_FILE = /\.tool\.[jt]s$/;

const isSpec = (value: unknown): value is ToolSpec =>
  typeof value === 'object' && value !== null && typeof (value as ToolSpec).name === 'string' && typeof (value as ToolSpec).create === 'function';

const PERMISSIONS: readonly unknown[] = ['allowlisted', 'always'];

/** Why a spec's facts or rank cannot be catalogued, or undefined when they can. */
function factsProblem(spec: ToolSpec): string | undefined {
  const { facts, rank } = spec;
  if (typeof facts !== 'object' || facts === null) return 'has no facts (toolset, permission, readOnly)';
  if (!TOOLSETS.includes(facts.toolset)) return `has toolset ${String(facts.toolset)}, not one of ${TOOLSETS.join(', ')}`;
  const shares = typeof facts.permission === 'object' && facts.permission !== null && typeof facts.permission.sharesWith === 'string';
  if (!shares && !PERMISSIONS.includes(facts.permission)) return "has a permission that is not 'allowlisted', 'always' or { sharesWith }";
  if (typeof facts.readOnly !== 'boolean') return 'must say readOnly: true or false';
  if (!Number.isInteger(rank)) return 'must have an integer rank (its place in its toolset in tools/list)';
  return undefined;
}

const listOrder = (a: ToolSpec, b: ToolSpec) => TOOLSETS.indexOf(a.facts.toolset) - TOOLSETS.indexOf(b.facts.toolset) || a.rank - b.rank;

/**
 * Every tool's spec from the modules discovered in tools/, in the order of tools/list (toolsets in
 * TOOLSETS order, then rank). A spec file must export exactly one spec, with facts and a rank no
 * other tool of its toolset has; anything else fails the start-up, naming the file.
 */
export function specsFromModules(modules: readonly ToolModule[]): readonly ToolSpec[] {
  const byName = new Map<string, ToolSpec>();
  const ranks = new Map<string, string>();
  for (const [file, exports] of modules) {
    const specs = Object.values(exports).filter(isSpec);
    if (specs.length !== 1) throw new Error(`${file} must export exactly one tool spec (toolSpec({...})); it exports ${specs.length}`);
    const [spec] = specs;
    if (byName.has(spec.name)) throw new Error(`${file}: tool ${spec.name} has a second spec`);
    const problem = factsProblem(spec);
    if (problem !== undefined) throw new Error(`${file}: tool ${spec.name} ${problem}`);
    const place = `${spec.facts.toolset} ${spec.rank}`;
    const holder = ranks.get(place);
    if (holder !== undefined) throw new Error(`${file}: tool ${spec.name} has rank ${spec.rank} in toolset ${spec.facts.toolset}, as ${holder} does`);
    ranks.set(place, spec.name);
    byName.set(spec.name, spec);
  }
  return [...byName.values()].sort(listOrder);
}

/** The domain's tool catalog, read from the specs (in their order, which is the order of tools/list). */
export function catalogOf(specs: readonly ToolSpec[]): ToolCatalog {
  return new ToolCatalog(specs.map((spec) => [spec.name, spec.facts] as const));
}

/** A spec's definition, built on its use case; its readOnlyHint must say what its facts say (`--read-only` trusts them). */
export function definitionOf(spec: ToolSpec, useCase: unknown, settings: Settings): ToolDefinition {
  const definition = spec.definition(useCase, settings);
  if (definition.name !== spec.name) throw new Error(`tool ${spec.name}: its definition is named ${definition.name}`);
  if (definition.annotations.readOnlyHint !== spec.facts.readOnly) {
    throw new Error(`tool ${spec.name}: readOnly ${spec.facts.readOnly} in its facts, readOnlyHint ${definition.annotations.readOnlyHint} in its annotations`);
  }
  return definition;
}
