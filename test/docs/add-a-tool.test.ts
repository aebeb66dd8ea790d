import { mkdtempSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { z } from 'zod';
import { McpServerFactory } from '../../src/adapters/inbound/mcp/protocol/server-factory.js';
import { WRITES, defineTool } from '../../src/adapters/inbound/mcp/tool-calls/tool-definition.js';
import { catalogOf, specsFromModules } from '../../src/adapters/inbound/mcp/tool-calls/tool-registry.js';
import { toolSpec } from '../../src/adapters/inbound/mcp/tool-calls/tool-spec.js';
import { TOOL_SPECS } from '../../src/adapters/inbound/mcp/tool-calls/tool-specs.js';
import { parseCommandLine } from '../../src/cli/command-line.js';
import { buildContainer } from '../../src/composition/container.js';
import { rootProbes } from '../../src/composition/root-probes.js';
import { loadConfig } from '../../src/config/load-config.js';
import { zeroConfigRoots } from '../../src/config/zero-config-roots.js';
import { type Principal, UNRESTRICTED_PRINCIPAL } from '../../src/domain/principal.js';
import { displayPath } from '../../src/domain/roots.js';
import type { RootAccess } from '../../src/domain/tools/root-access.js';
import { callTool } from '../support/mcp.js';
import { RecordingLogger } from '../support/recording-logger.js';
import { TOOLS } from '../support/tools.js';

const ROOT = process.cwd();

function filesUnder(directory: string): string[] {
  return readdirSync(join(ROOT, directory), { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile() && entry.name.endsWith('.ts'))
    .map((entry) => relative(ROOT, join(entry.parentPath, entry.name)));
}

const naming = (name: string) => new RegExp(`\\b${name}\\b`);
const kebab = (name: string) => name.replaceAll('_', '-');
const camel = (name: string) => name.replace(/_([a-z])/g, (_, letter: string) => letter.toUpperCase());

/**
 * The files adding a tool takes (docs/architecture.md, "Add a tool"), checked on stat_file, the
 * model the guide follows: its use case, its spec, its test and docs/tools.md. No module, binding,
 * registry, catalog or name list anywhere else names it.
 */
describe('adding a tool', () => {
  const source = filesUnder('src');

  it('stat_file is named in src by its use case and its spec only (the registry discovers its file, the catalog reads its facts)', () => {
    const namingStat = source.filter((file) => naming('stat_file').test(readFileSync(join(ROOT, file), 'utf8'))).sort();
    expect(namingStat).toEqual(['src/adapters/inbound/mcp/tools/stat-file.tool.ts', 'src/domain/tools/stat-file.ts']);
    // No module binds its use case or its definition by hand: the spec's loop does.
    const namingClass = source.filter((file) => /\bStatFile\b|\bstatFileTool\b/.test(readFileSync(join(ROOT, file), 'utf8'))).sort();
    expect(namingClass).toEqual(['src/adapters/inbound/mcp/tools/stat-file.tool.ts', 'src/domain/tools/stat-file.ts']);
  });

  it.each(TOOLS.names.map((name) => [name]))('%s has a spec file exporting its spec, a test, and a heading or table row in docs/tools.md', (name) => {
    const spec = readFileSync(join(ROOT, 'src/adapters/inbound/mcp/tools', `${kebab(name)}.tool.ts`), 'utf8');
    expect(spec).toContain(`export const ${camel(name)}Spec = toolSpec({\n  name: '${name}',\n  facts: {`);
    const tests = filesUnder('test').filter((file) => naming(name).test(readFileSync(join(ROOT, file), 'utf8')));
    expect(tests.length).toBeGreaterThan(0);
    expect(readFileSync(join(ROOT, 'docs/tools.md'), 'utf8')).toMatch(new RegExp(`^(###|\\|).*\`${name}\`|^### ${name}$`, 'm'));
  });
});

/** The guide's `touch`, as its two source files would hold it: a use case over RootAccess, and its spec. */
class Touch {
  constructor(private readonly access: RootAccess) {}

  execute(root: string, path: string): { path: string } {
    return { path: displayPath(this.access.path('touch', root, path)) };
  }
}

const touchSpec = toolSpec({
  name: 'touch',
  facts: { toolset: 'root', permission: 'allowlisted', readOnly: false },
  rank: 125,
  useCase: Touch,
  create: (services) => new Touch(services.access),
  definition: (touch: Touch) =>
    defineTool({
      name: 'touch',
      title: 'Touch',
      description: 'Touch a file.',
      inputSchema: { root: z.string(), path: z.string() },
      outputSchema: { path: z.string() },
      annotations: WRITES,
      logFields: (args) => ({ root: args.root }),
      handle: async (args) => ({ structured: touch.execute(args.root, args.path) }),
    }),
});

/**
 * The proof the guide's four files are enough: touch's spec joins the discovered ones exactly as the
 * registry takes a new file in tools/ (the bundle's plugin hands it the same list), and nothing else
 * changes: config accepts it in allowed_tools, tools/list offers it, its allowlist and --read-only police it.
 */
describe('a new tool from its use case and spec alone', () => {
  const discovered = [...TOOL_SPECS.map((spec) => [`${kebab(spec.name)}.tool.ts`, { spec }] as const), ['touch.tool.ts', { touchSpec }] as const];
  const specs = specsFromModules(discovered);
  const catalog = catalogOf(specs);
  const dir = mkdtempSync(join(tmpdir(), 'mcp-fs-add-a-tool-'));
  for (const root of ['ws', 'ro']) mkdirSync(join(dir, root));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  const configFile = (allowed: string) => {
    const file = join(dir, 'config.yaml');
    writeFileSync(file, `journal: { enabled: false }\nroots:\n  - { name: ws, path: ws, allowed_tools: [${allowed}] }\n  - { name: ro, path: ro, allowed_tools: [read_file] }\n`);
    return file;
  };
  const load = (allowed: string, tools = catalog) => {
    const argv = ['--config', configFile(allowed)];
    return loadConfig(parseCommandLine(argv, {}), argv, {}, rootProbes, tools);
  };

  async function connect(principal: Principal): Promise<Client> {
    const container = buildContainer(load('touch, read_file'), { logger: new RecordingLogger(), toolSpecs: specs });
    const server = container.get(McpServerFactory).create('add-a-tool', principal);
    const [clientTransport, serverTransport] = InMemoryTransport.createLinkedPair();
    await server.connect(serverTransport);
    const client = new Client({ name: 'add-a-tool', version: '1' });
    await client.connect(clientTransport);
    return client;
  }

  it('takes its place in tools/list by toolset and rank, and its facts into the catalog', () => {
    expect(specs.map((spec) => spec.name)).toEqual([...TOOLS.names.slice(0, TOOLS.names.indexOf('permissions_file') + 1), 'touch', ...TOOLS.names.slice(TOOLS.names.indexOf('copy'))]);
    expect(catalog.writing.has('touch')).toBe(true);
    expect(catalog.rootScoped).toContain('touch');
  });

  it('is allowlistable: config accepts it, still rejects a typo, and the served catalog without its spec rejects it', () => {
    expect(load('touch, read_file').roots[0].allowedTools).toEqual(['touch', 'read_file']);
    expect(() => load('tuoch')).toThrow('roots[0].allowed_tools: unknown tool name "tuoch"');
    expect(() => load('touch', TOOLS)).toThrow('roots[0].allowed_tools: unknown tool name "touch"');
  });

  it('is listed and policed: allowed on ws, TOOL_NOT_ALLOWED on ro', async () => {
    const client = await connect(UNRESTRICTED_PRINCIPAL);
    try {
      expect((await client.listTools()).tools.map((tool) => tool.name)).toContain('touch');
      expect((await callTool(client, 'touch', { root: 'ws', path: 'a.txt' })).structured).toEqual({ path: 'a.txt' });
      const refused = await callTool(client, 'touch', { root: 'ro', path: 'a.txt' });
      expect(refused.isError).toBe(true);
      expect(refused.text).toContain('tool touch not allowed on root ro');
    } finally {
      await client.close();
    }
  });

  it('is a writing tool: --read-only leaves it out, and a read-only principal is not offered it', async () => {
    expect(zeroConfigRoots([join(dir, 'ws')], true, catalog)[0].allowed_tools).toEqual(TOOLS.readOnly);
    expect(zeroConfigRoots([join(dir, 'ws')], false, catalog)[0].allowed_tools).toEqual(['*']);
    const client = await connect({ name: 'token:reader', readOnly: true });
    try {
      const listed = (await client.listTools()).tools.map((tool) => tool.name);
      expect(listed).toContain('read_file');
      expect(listed).not.toContain('touch');
    } finally {
      await client.close();
    }
  });
});
