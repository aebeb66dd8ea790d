import { readdirSync } from 'node:fs';
import { Container } from 'inversify';
import { z } from 'zod';
import { READ_ONLY, defineTool } from '../../../../../src/adapters/inbound/mcp/tool-calls/tool-definition.js';
import { toolSpec, type ToolServices } from '../../../../../src/adapters/inbound/mcp/tool-calls/tool-spec.js';
import { TOOL_FILE, specsFromModules } from '../../../../../src/adapters/inbound/mcp/tool-calls/tool-registry.js';
import { TOOL_SPECS } from '../../../../../src/adapters/inbound/mcp/tool-calls/tool-specs.js';
import { InMemoryFileSystem } from '../../../../../src/adapters/outbound/in-memory-file-system.js';
import { toolSpecsModule } from '../../../../../src/composition/modules/tool-specs.module.js';
import { TOKENS } from '../../../../../src/composition/tokens.js';
import type { FileSystemPort } from '../../../../../src/domain/ports/file-system.port.js';
import type { Settings } from '../../../../../src/domain/settings.js';
import { TOOL_NAMES } from '../../../../../src/domain/tool-names.js';
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

/** Only what the probe reads is bound: the namespace, the journal and the rest are never asked for. */
function containerWith(toolsets: Parameters<typeof toolSpecsModule>[0]): Container {
  const container = new Container();
  container.bind(TOKENS.FileSystem).toConstantValue(files);
  container.bind(TOKENS.Settings).toConstantValue(TEST_SETTINGS);
  container.load(toolSpecsModule(toolsets, [probeSpec]));
  return container;
}

describe('tool specs', () => {
  it('hold one spec per catalogued tool, in the catalog order, each building the definition of its own name', () => {
    expect(TOOL_SPECS.map((spec) => spec.name)).toEqual(TOOL_NAMES);
    expect(new Set(TOOL_SPECS.map((spec) => spec.useCase)).size).toBe(TOOL_SPECS.length);
  });

  it('are discovered: every *.tool.ts file in tools/ is one registered spec, named after its file', () => {
    const files = readdirSync('src/adapters/inbound/mcp/tools').filter((file) => TOOL_FILE.test(file));
    expect(files.sort()).toEqual(TOOL_SPECS.map((spec) => `${spec.name.replaceAll('_', '-')}.tool.ts`).sort());
  });

  it('fail loudly, naming the file, when a spec file exports no spec, two specs, or an uncatalogued tool', () => {
    const all = TOOL_SPECS.map((spec, index) => [`tool${index}.tool.ts`, { spec }] as const);
    expect(specsFromModules(all)).toEqual(TOOL_SPECS);
    expect(() => specsFromModules([...all, ['touch.tool.ts', { touchTool: () => undefined }]])).toThrow(
      'touch.tool.ts must export exactly one tool spec (toolSpec({...})); it exports 0',
    );
    expect(() => specsFromModules([...all.slice(1), ['both.tool.ts', { a: TOOL_SPECS[0], b: TOOL_SPECS[1] }]])).toThrow('both.tool.ts must export exactly one tool spec');
    expect(() => specsFromModules([...all, ['again.tool.ts', { spec: TOOL_SPECS[3] }]])).toThrow(`again.tool.ts: tool ${TOOL_SPECS[3].name} has a second spec`);
    expect(() => specsFromModules([...all, ['touch.tool.ts', { touchSpec: { ...probeSpec, name: 'touch' } }]])).toThrow(
      "touch.tool.ts: tool touch is not in the domain's tool catalog",
    );
    expect(() => specsFromModules(all.slice(1))).toThrow(`no spec file in tools/ for ${TOOL_SPECS[0].name}`);
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
