import { readdirSync } from 'node:fs';
import { Container } from 'inversify';
import { z } from 'zod';
import { READ_ONLY, defineTool } from '../../../../../src/adapters/inbound/mcp/tool-calls/tool-definition.js';
import { toolSpec, type ToolServices, type ToolSpec } from '../../../../../src/adapters/inbound/mcp/tool-calls/tool-spec.js';
import { TOOL_FILE, catalogOf, definitionOf, specsFromModules } from '../../../../../src/adapters/inbound/mcp/tool-calls/tool-registry.js';
import { TOOL_SPECS } from '../../../../../src/adapters/inbound/mcp/tool-calls/tool-specs.js';
import { InMemoryFileSystem } from '../../../../../src/adapters/outbound/in-memory-file-system.js';
import { toolSpecsModule } from '../../../../../src/composition/modules/tool-specs.module.js';
import { TOKENS } from '../../../../../src/composition/tokens.js';
import type { FileSystemPort } from '../../../../../src/domain/ports/file-system.port.js';
import type { Settings } from '../../../../../src/domain/settings.js';
import { TOOLSETS, type Toolset } from '../../../../../src/domain/tool-facts.js';
import { TEST_SETTINGS } from '../../../../support/domain.js';

/** A stand-in use case: what a new tool's factory builds. */
class Probe {
  static built = 0;
  constructor(
    readonly files: FileSystemPort,
    readonly settings: Settings,
  ) {
    Probe.built += 1;
  }
}

const probeSpec = toolSpec({
  name: 'stat_file',
  facts: { toolset: 'root', permission: 'allowlisted', readOnly: true },
  rank: 1,
  useCase: Probe,
  create: (services: ToolServices) => new Probe(services.files, services.settings),
  definition: (probe, settings) =>
    defineTool({
      name: 'stat_file',
      title: 'Probe',
      description: `A tool registered from its spec alone (max_file_size ${settings.maxFileSize}).`,
      inputSchema: { path: z.string() },
      annotations: READ_ONLY,
      logFields: (args) => ({ path: args.path }),
      handle: async () => ({ structured: { same_files: probe.files === files } }),
    }),
});

const files = new InMemoryFileSystem();

/** tools/list as it was when the catalog was a hand-written list in the domain (issue 28.2). */
const LISTED_BEFORE = [
  'list_roots', 'list_folder', 'read_file', 'read_files', 'write_file', 'remove_file', 'patch_file', 'create_folder', 'remove_folder',
  'stat_file', 'hash_file', 'permissions_file', 'copy', 'move', 'grep', 'glob', 'view', 'str_replace', 'create_file', 'change_directory',
  'file_read', 'file_write', 'file_list', 'list_changes', 'undo_changes', 'review_changes',
];

/** Only what the probe reads is bound: the namespace, the journal and the rest are never asked for. */
function containerWith(toolsets: Parameters<typeof toolSpecsModule>[0]): Container {
  const container = new Container();
  container.bind(TOKENS.FileSystem).toConstantValue(files);
  container.bind(TOKENS.Settings).toConstantValue(TEST_SETTINGS);
  container.load(toolSpecsModule(toolsets, [probeSpec]));
  return container;
}

describe('tool specs', () => {
  it('keep the tools/list order the hand-written catalog had (toolsets in order, then rank); a new tool may go anywhere', () => {
    const names = TOOL_SPECS.map((spec) => spec.name);
    expect(names.filter((name) => LISTED_BEFORE.includes(name))).toEqual(LISTED_BEFORE);
    expect(TOOL_SPECS.map((spec) => spec.facts.toolset)).toEqual([...TOOL_SPECS.map((spec) => spec.facts.toolset)].sort((a, b) => TOOLSETS.indexOf(a) - TOOLSETS.indexOf(b)));
    expect(new Set(TOOL_SPECS.map((spec) => spec.useCase)).size).toBe(TOOL_SPECS.length);
  });

  it('order specs by toolset, then rank, whatever order their files come in', () => {
    const spec = (name: string, toolset: Toolset, rank: number) => ({ ...probeSpec, name, facts: { ...probeSpec.facts, toolset }, rank });
    const modules = [spec('c', 'editor', 5), spec('b', 'root', 20), spec('d', 'changes', 1), spec('a', 'root', 10)].map((s) => [`${s.name}.tool.ts`, { s }] as const);
    expect(specsFromModules(modules).map((s) => s.name)).toEqual(['a', 'b', 'c', 'd']);
  });

  it('are discovered: every *.tool.ts file in tools/ is one registered spec, named after its file', () => {
    const files = readdirSync('src/adapters/inbound/mcp/tools').filter((file) => TOOL_FILE.test(file));
    expect(files.sort()).toEqual(TOOL_SPECS.map((spec) => `${spec.name.replaceAll('_', '-')}.tool.ts`).sort());
  });

  it('fail loudly, naming the file, when a spec file exports no spec, two specs, or a spec without its facts', () => {
    const all = TOOL_SPECS.map((spec, index) => [`tool${index}.tool.ts`, { spec }] as const);
    expect(specsFromModules(all)).toEqual(TOOL_SPECS);
    expect(() => specsFromModules([...all, ['touch.tool.ts', { touchTool: () => undefined }]])).toThrow(
      'touch.tool.ts must export exactly one tool spec (toolSpec({...})); it exports 0',
    );
    expect(() => specsFromModules([...all.slice(1), ['both.tool.ts', { a: TOOL_SPECS[0], b: TOOL_SPECS[1] }]])).toThrow('both.tool.ts must export exactly one tool spec');
    expect(() => specsFromModules([...all, ['again.tool.ts', { spec: TOOL_SPECS[3] }]])).toThrow(`again.tool.ts: tool ${TOOL_SPECS[3].name} has a second spec`);
    const touch = (changes: Partial<ToolSpec> | { facts: unknown }) => specsFromModules([...all, ['touch.tool.ts', { touchSpec: { ...probeSpec, name: 'touch', rank: 99, ...changes } }]]);
    expect(touch({})).toContain(TOOL_SPECS[0]);
    expect(() => touch({ facts: undefined })).toThrow('touch.tool.ts: tool touch has no facts (toolset, permission, readOnly)');
    expect(() => touch({ facts: { ...probeSpec.facts, toolset: 'files' } })).toThrow('touch.tool.ts: tool touch has toolset files, not one of root, editor, repo, changes');
    expect(() => touch({ facts: { ...probeSpec.facts, permission: 'sometimes' } })).toThrow('touch.tool.ts: tool touch has a permission that is not');
    expect(() => touch({ facts: { toolset: 'root', permission: 'always' } })).toThrow('touch.tool.ts: tool touch must say readOnly: true or false');
    expect(() => touch({ rank: 1.5 })).toThrow('touch.tool.ts: tool touch must have an integer rank');
    const listRoots = TOOL_SPECS.find((spec) => spec.name === 'list_roots');
    expect(() => touch({ rank: listRoots?.rank })).toThrow(`touch.tool.ts: tool touch has rank ${listRoots?.rank} in toolset root, as list_roots does`);
  });

  it('make the catalog: a tool may share only an allowlisted tool\'s permission', () => {
    expect(catalogOf(TOOL_SPECS).names).toEqual(TOOL_SPECS.map((spec) => spec.name));
    expect(catalogOf(TOOL_SPECS).permissionOf('read_files')).toBe('read_file');
    const sharing = { ...probeSpec, name: 'peek', rank: 2, facts: { ...probeSpec.facts, permission: { sharesWith: 'list_roots' } } };
    expect(() => catalogOf([...TOOL_SPECS, sharing])).toThrow('tool peek shares the permission of list_roots, which is not an allowlisted tool');
  });

  it("refuse a definition whose readOnlyHint is not what the spec's facts say (--read-only trusts the facts)", () => {
    const probe = new Probe(files, TEST_SETTINGS);
    expect(definitionOf(probeSpec, probe, TEST_SETTINGS).annotations.readOnlyHint).toBe(true);
    const writes = { ...probeSpec, facts: { ...probeSpec.facts, readOnly: false } };
    expect(() => definitionOf(writes, probe, TEST_SETTINGS)).toThrow('tool stat_file: readOnly false in its facts, readOnlyHint true in its annotations');
    expect(() => definitionOf({ ...probeSpec, name: 'touch' }, probe, TEST_SETTINGS)).toThrow('tool touch: its definition is named stat_file');
  });

  it('registers a spec with nothing else: its use case is built once, from the services it reads', async () => {
    Probe.built = 0;
    const container = containerWith(['root']);
    const [definition] = container.getAll(TOKENS.ToolDefinition);
    expect(container.getAll(TOKENS.ToolDefinition)).toHaveLength(1);
    expect(definition.description).toContain(`max_file_size ${TEST_SETTINGS.maxFileSize}`);
    expect(await definition.handle({ path: 'x' } as never, { sessionId: 's', principal: 'p' })).toEqual({ structured: { same_files: true } });
    expect(container.get(Probe)).toBe(container.get(Probe));
    expect(Probe.built).toBe(1);
  });

  it('leaves out a spec whose toolset is not served', () => {
    const container = containerWith(['editor', 'repo']);
    expect(container.isBound(TOKENS.ToolDefinition)).toBe(false);
    expect(container.isBound(Probe)).toBe(false);
  });
});
