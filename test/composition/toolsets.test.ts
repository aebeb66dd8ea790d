import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { McpResourceHandler } from '../../src/adapters/inbound/mcp/protocol/resource-handler.js';
import { buildContainer } from '../../src/composition/container.js';
import { TOKENS } from '../../src/composition/tokens.js';
import type { AppConfig } from '../../src/config/app-config.js';
import { TOOLSETS, type Toolset } from '../../src/domain/tool-facts.js';
import { RecordingLogger } from '../support/recording-logger.js';
import { TOOLS } from '../support/tools.js';
import { compositionConfig } from './app-config.js';

const journalDir = mkdtempSync(join(tmpdir(), 'mcp-fs-toolsets-journal-'));
afterAll(() => rmSync(journalDir, { recursive: true, force: true }));

/** With the change journal on (as loadConfig has it by default), so the changes toolset is served. */
function configWith(toolsets?: readonly Toolset[]): AppConfig {
  return compositionConfig({ toolsets, journal: { dir: join(journalDir, 'j'), maxBytes: 1000, maxFileBytes: 100, retentionHours: 1 } });
}

function toolNames(toolsets?: readonly Toolset[]): string[] {
  return buildContainer(configWith(toolsets), { logger: new RecordingLogger() })
    .getAll(TOKENS.ToolDefinition)
    .map((tool) => tool.name)
    .sort();
}

describe('toolsets', () => {
  it('every allowlistable tool belongs to exactly the toolset whose modules serve it', () => {
    for (const toolset of TOOLSETS) {
      const served = toolNames([toolset]);
      const allowlistable = served.filter((name) => TOOLS.allowlistable.has(name));
      expect(allowlistable.every((name) => TOOLS.toolsetOf(name) === toolset)).toBe(true);
    }
    expect([...TOOLS.allowlistable].every((name) => TOOLS.toolsetOf(name) !== undefined)).toBe(true);
  });

  it('list_roots is in root, change_directory in editor, list_changes in changes; absent toolsets mean every catalogued tool', () => {
    expect(toolNames(['root'])).toContain('list_roots');
    expect(toolNames(['editor'])).toEqual(['change_directory', 'create_file', 'str_replace', 'view']);
    expect(toolNames(['repo'])).toEqual(['file_list', 'file_read', 'file_write']);
    expect(toolNames(['changes'])).toEqual(['list_changes', 'review_changes', 'undo_changes']);
    expect(toolNames()).toEqual(toolNames([...TOOLSETS]));
    expect(toolNames()).toEqual([...TOOLS.names].sort());
    for (const toolset of TOOLSETS) expect(toolNames([toolset])).toEqual(TOOLS.names.filter((name) => TOOLS.toolsetOfTool(name) === toolset).sort());
  });

  it('serves no changes toolset while the journal is off, and no root allows undo_changes then', () => {
    const container = buildContainer(compositionConfig(), { logger: new RecordingLogger() });
    const names = container.getAll(TOKENS.ToolDefinition).map((tool) => tool.name);
    expect(names).toEqual(TOOLS.names.filter((name) => TOOLS.toolsetOfTool(name) !== 'changes'));
    expect(names).not.toContain('list_changes');
    expect(container.get(TOKENS.PathPolicy).roots[0].allowedTools.has('undo_changes')).toBe(false);
  });

  it('resources follow the root toolset (they read through read_file)', () => {
    expect(buildContainer(configWith(['root']), { logger: new RecordingLogger() }).isBound(McpResourceHandler)).toBe(true);
    expect(buildContainer(configWith(['editor', 'repo']), { logger: new RecordingLogger() }).isBound(McpResourceHandler)).toBe(false);
  });

  it('the catalog\'s read-only tools are exactly the allowlistable tools annotated readOnlyHint', () => {
    const readOnly = buildContainer(configWith(), { logger: new RecordingLogger() })
      .getAll(TOKENS.ToolDefinition)
      .filter((tool) => TOOLS.allowlistable.has(tool.name) && tool.annotations.readOnlyHint)
      .map((tool) => tool.name)
      .sort();
    expect(readOnly).toEqual([...TOOLS.readOnly].sort());
  });

  it("every tool's facts say read-only exactly when its definition says readOnlyHint", () => {
    const hints = buildContainer(configWith(), { logger: new RecordingLogger() })
      .getAll(TOKENS.ToolDefinition)
      .map((tool) => [tool.name, tool.annotations.readOnlyHint]);
    expect(hints).toEqual(TOOLS.names.map((name) => [name, TOOLS.factsOf(name)?.readOnly]));
  });
});
