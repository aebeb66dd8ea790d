import { z } from 'zod';
import type { ToolDefinition, ToolOutput } from '../../../../../src/adapters/inbound/mcp/tool-calls/tool-definition.js';

export function byName(tools: ToolDefinition[]): Map<string, ToolDefinition> {
  return new Map(tools.map((tool) => [tool.name, tool]));
}

/** What the MCP adapter checks: structuredContent must satisfy outputSchema; strict() also catches undeclared fields. */
export async function callChecked(tool: ToolDefinition, args: Record<string, unknown>): Promise<ToolOutput> {
  const output = await tool.handle(z.object(tool.inputSchema).strict().parse(args), { sessionId: 'test', principal: 'local' });
  z.object(tool.outputSchema ?? {}).strict().parse(output.structured);
  return output;
}

/**
 * Fields whose name, with the tool's description, says all a description would ("Root name.",
 * "File to edit."): every agent turn pays for tools/list, so they go undescribed (issue 19 §7).
 * write_file's `mode` is spelled out in its description. Any other field must be described.
 */
const SELF_EXPLANATORY = new Set(['root', 'path', 'paths', 'source_root', 'source_path', 'dest_root', 'dest_path', 'case_insensitive', 'replace_all', 'mode']);

/** Every input field carries a description an LLM can read, unless its name is self-explanatory. */
export function expectEveryInputDescribed(tool: ToolDefinition): void {
  for (const [field, schema] of Object.entries(tool.inputSchema)) {
    if (SELF_EXPLANATORY.has(field) && (schema as z.ZodType).description === undefined) continue;
    expect({ tool: tool.name, field, description: (schema as z.ZodType).description }).toEqual({
      tool: tool.name,
      field,
      description: expect.stringMatching(/\S{3}/),
    });
  }
}

/** tool name -> [readOnlyHint, destructiveHint] */
export function readOnlyAndDestructiveHints(tools: Iterable<ToolDefinition>): Record<string, [unknown, unknown]> {
  return Object.fromEntries([...tools].map((tool) => [tool.name, [tool.annotations.readOnlyHint, tool.annotations.destructiveHint]]));
}
