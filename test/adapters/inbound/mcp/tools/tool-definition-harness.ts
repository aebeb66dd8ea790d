import { z } from 'zod';
import type { ToolDefinition, ToolOutput } from '../../../../../src/adapters/inbound/mcp/tool-definition.js';

export function byName(tools: ToolDefinition[]): Map<string, ToolDefinition> {
  return new Map(tools.map((tool) => [tool.name, tool]));
}

/** What the MCP adapter checks: structuredContent must satisfy outputSchema; strict() also catches undeclared fields. */
export async function callChecked(tool: ToolDefinition, args: Record<string, unknown>): Promise<ToolOutput> {
  const output = await tool.handle(z.object(tool.inputSchema).strict().parse(args), { sessionId: 'test', principal: 'local' });
  z.object(tool.outputSchema ?? {}).strict().parse(output.structured);
  return output;
}

/** Every input field carries a description an LLM can read. */
export function expectEveryInputDescribed(tool: ToolDefinition): void {
  for (const [field, schema] of Object.entries(tool.inputSchema)) {
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
