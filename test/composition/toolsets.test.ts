import { McpResourceHandler } from '../../src/adapters/inbound/mcp/resource-handler.js';
import { buildContainer } from '../../src/composition/container.js';
import { TOKENS } from '../../src/composition/tokens.js';
import type { AppConfig } from '../../src/config/app-config.js';
import { ALLOWLISTABLE_TOOLS, READ_ONLY_TOOLS, TOOLSETS, toolsetOf, type Toolset } from '../../src/domain/tool-names.js';
import { RecordingLogger } from '../support/recording-logger.js';
import { compositionConfig } from './app-config.js';

function configWith(toolsets?: readonly Toolset[]): AppConfig {
  return compositionConfig({ toolsets });
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
      const allowlistable = served.filter((name) => ALLOWLISTABLE_TOOLS.has(name));
      expect(allowlistable.every((name) => toolsetOf(name) === toolset)).toBe(true);
    }
    expect([...ALLOWLISTABLE_TOOLS].every((name) => toolsetOf(name) !== undefined)).toBe(true);
  });

  it('list_roots is in root, change_directory in editor; absent toolsets mean all 23 tools', () => {
    expect(toolNames(['root'])).toContain('list_roots');
    expect(toolNames(['editor'])).toEqual(['change_directory', 'create_file', 'str_replace', 'view']);
    expect(toolNames(['repo'])).toEqual(['file_list', 'file_read', 'file_write']);
    expect(toolNames()).toEqual(toolNames([...TOOLSETS]));
    expect(toolNames()).toHaveLength(23);
  });

  it('resources follow the root toolset (they read through read_file)', () => {
    expect(buildContainer(configWith(['root']), { logger: new RecordingLogger() }).isBound(McpResourceHandler)).toBe(true);
    expect(buildContainer(configWith(['editor', 'repo']), { logger: new RecordingLogger() }).isBound(McpResourceHandler)).toBe(false);
  });

  it('READ_ONLY_TOOLS are exactly the allowlistable tools annotated readOnlyHint', () => {
    const readOnly = buildContainer(configWith(), { logger: new RecordingLogger() })
      .getAll(TOKENS.ToolDefinition)
      .filter((tool) => ALLOWLISTABLE_TOOLS.has(tool.name) && tool.annotations.readOnlyHint)
      .map((tool) => tool.name)
      .sort();
    expect(readOnly).toEqual([...READ_ONLY_TOOLS].sort());
  });
});
