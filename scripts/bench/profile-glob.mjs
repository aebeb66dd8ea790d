#!/usr/bin/env node
// Where a repeated glob's time goes (issue 31.2's row: tree-100k, **/*.ts, 25,105 matches, from the walk
// snapshot), in process, stage by stage: the snapshot's replay alone (the same walk, a trivial select),
// Glob.execute (replay, select, result objects, sort), the result mapper (text block and JSON), the output
// check and the size measure, the message as stdout gets it, and the v1 SDK client's stdio read (64 KiB
// chunks into its ReadBuffer, JSON.parse, its schema). Medians of wall and process CPU ms.
// With a second project directory (its dist/ built, e.g. a copy of an older commit), both run in this
// one process, call by call, alternating which goes first: a paired comparison on a noisy machine.
// Usage: npm run build && node scripts/bench/profile-glob.mjs [rounds=10] [other project dir]
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { ensureCorpus } from './corpus.mjs';
import { writeConfig } from './servers.mjs';

const projectDir = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const rounds = Number(process.argv[2] ?? 10);
const other = process.argv[3];
const GLOB = { root: 'bench', path: 'tree-100k', pattern: '**/*.ts', max_results: 100_000 };
const STAGES = ['replay', 'execute', 'map', 'check', 'send', 'client'];

const configFile = writeConfig(mkdtempSync(join(tmpdir(), 'mcpfs-profile-glob-')), ensureCorpus());
process.env.MCP_FS_SEARCH_INDEX = 'auto';
process.env.MCP_FS_JOURNAL_ENABLED = 'false';

/** One project's server, in process, with its snapshot of the bench root built; returns a round of the stages. */
async function setup(dir) {
  const load = (path) => import(join(dir, 'dist', path));
  const { parseCommandLine } = await load('cli/command-line.js');
  const { loadConfig } = await load('config/load-config.js');
  const { rootProbes } = await load('composition/root-probes.js');
  const { TOOL_CATALOG } = await load('adapters/inbound/mcp/tool-calls/spec-catalog.js');
  const { buildStdioContainer } = await load('composition/core-container.js');
  const { TOKENS } = await load('composition/tokens.js');
  const { TreeSnapshots } = await load('domain/search/tree-snapshots.js');
  const { Glob } = await load('domain/tools/glob.js');
  const { RootAccess } = await load('domain/tools/root-access.js');
  const { ignoreRulesFor } = await load('domain/search/ignore-rules.js');
  const { IgnoreRuleCache } = await load('domain/search/ignore-rule-cache.js');
  const { toCallToolResult } = await load('adapters/inbound/mcp/tool-calls/result-mapper.js');
  const { jsonByteLength } = await load('adapters/inbound/mcp/tool-calls/json-size.js');
  const { prepareTool } = await load('adapters/inbound/mcp/tool-calls/tool-schemas.js');
  const { serializeMessage } = await load('adapters/inbound/mcp/transports/message-json.js');
  const sdk = join(projectDir, 'node_modules', '@modelcontextprotocol', 'sdk', 'dist', 'esm');
  const { ReadBuffer } = await import(join(sdk, 'shared', 'stdio.js'));
  const { CallToolResultSchema } = await import(join(sdk, 'types.js'));

  const argv = ['--stdio', '--config', configFile];
  const container = await buildStdioContainer(loadConfig(parseCommandLine(argv, process.env), argv, process.env, rootProbes, TOOL_CATALOG));
  const glob = container.get(Glob);
  const definition = container.getAll(TOKENS.ToolDefinition).find((tool) => tool.name === 'glob');
  const accepts = prepareTool(definition).outputAccepts;
  const snapshots = container.get(TreeSnapshots);
  const files = container.get(TOKENS.FileSystem);
  const start = container.get(RootAccess).path('glob', GLOB.root, GLOB.path);
  await glob.execute(GLOB);
  await snapshots.settled(start.root);

  async function replayOnly() {
    const rules = await ignoreRulesFor(files, start, 'gitignore', container.get(IgnoreRuleCache));
    let selected = 0;
    for await (const batch of await snapshots.scanTree(start, { select: (path) => path.endsWith('.ts'), ...rules?.scanOptions() }, 'gitignore')) selected += batch.selected.length;
    if (selected !== 25_105) throw new Error(`replay selected ${selected}`);
  }

  return async function round(times, keep) {
    const stage = async (name, work) => {
      const wall = performance.now();
      const cpu = process.cpuUsage();
      const value = await work();
      const used = process.cpuUsage(cpu);
      if (keep) {
        (times[name] ??= []).push(performance.now() - wall);
        (times[`${name} cpu`] ??= []).push((used.user + used.system) / 1000);
      }
      return value;
    };
    await stage('replay', replayOnly);
    const structured = await stage('execute', () => glob.execute(GLOB));
    if (structured.total_matches !== 25_105) throw new Error(`glob: ${structured.total_matches} matches`);
    const sizes = new Map();
    const result = await stage('map', () => toCallToolResult({ structured: { ...structured } }, definition, sizes));
    await stage('check', () => accepts(result.structuredContent) && jsonByteLength(result, sizes));
    const bytes = await stage('send', () => Buffer.from(`${serializeMessage({ jsonrpc: '2.0', id: 1, result })}\n`));
    times.bytes = bytes.length;
    await stage('client', () => {
      const reader = new ReadBuffer();
      let message = null;
      for (let offset = 0; offset < bytes.length; offset += 65_536) {
        reader.append(bytes.subarray(offset, offset + 65_536));
        message = reader.readMessage() ?? message;
      }
      return CallToolResultSchema.parse(message.result);
    });
  };
}

const variants = { this: await setup(projectDir), ...(other ? { other: await setup(other) } : {}) };
const names = Object.keys(variants);
const times = Object.fromEntries(names.map((name) => [name, {}]));
for (let i = 0; i < rounds + 2; i += 1) {
  const order = i % 2 === 0 ? names : [...names].reverse();
  for (const name of order) await variants[name](times[name], i >= 2);
}
const median = (values) => [...values].sort((a, b) => a - b)[values.length >> 1];
console.log(`| stage | ${names.map((name) => `${name} wall ms | ${name} CPU ms`).join(' | ')} |`);
console.log(`| --- | ${names.map(() => '--- | ---').join(' | ')} |`);
for (const stage of STAGES) console.log(`| ${stage} | ${names.map((name) => `${median(times[name][stage]).toFixed(1)} | ${median(times[name][`${stage} cpu`]).toFixed(1)}`).join(' | ')} |`);
const total = (name, suffix) => STAGES.slice(1).reduce((sum, stage) => sum + median(times[name][`${stage}${suffix}`]), 0);
console.log(`| execute..client | ${names.map((name) => `${total(name, '').toFixed(0)} | ${total(name, ' cpu').toFixed(0)}`).join(' | ')} |`);
console.log(`message bytes: ${names.map((name) => `${name} ${times[name].bytes}`).join(', ')}`);
process.exit(0);
