import { z } from 'zod';
import { READ_ONLY, defineTool, type ToolDefinition } from '../../../../../src/adapters/inbound/mcp/tool-calls/tool-definition.js';
import { prepareTool } from '../../../../../src/adapters/inbound/mcp/tool-calls/tool-schemas.js';

/** A definition that counts how often its schemas' shapes are read. */
function countedDefinition(): { definition: ToolDefinition; reads: { input: number; output: number } } {
  const reads = { input: 0, output: 0 };
  const base = defineTool({
    name: 'counted',
    title: 'Counted',
    description: 'Counts reads of its schemas.',
    inputSchema: { path: z.string() },
    outputSchema: { size: z.number() },
    annotations: READ_ONLY,
    logFields: () => ({}),
    handle: async () => ({ structured: { size: 1 } }),
  });
  const definition = Object.create(base, {
    inputSchema: { get: () => ((reads.input += 1), base.inputSchema) },
    outputSchema: { get: () => ((reads.output += 1), base.outputSchema) },
  }) as ToolDefinition;
  return { definition, reads };
}

// Issue 31.1: start-up prepares every tool, but a first answer needs only its own tool's schemas.
describe('prepareTool', () => {
  it('builds no schema until the tool is called or listed', () => {
    const { definition, reads } = countedDefinition();
    const tool = prepareTool(definition);
    expect(reads).toEqual({ input: 0, output: 0 });
    expect(tool.input.safeParse({ path: 'a' }).success).toBe(true);
    expect(tool.input.safeParse({ path: 'a', extra: 1 }).success).toBe(false);
    expect(reads).toEqual({ input: 1, output: 0 });
    expect(tool.outputAccepts?.({ size: 2 })).toBe(true);
    expect(tool.output?.safeParse({ size: 2, extra: 1 }).success).toBe(false);
    expect(reads.output).toBe(1);
  });

  it('builds each schema once, whichever asks first', () => {
    const { definition, reads } = countedDefinition();
    const tool = prepareTool(definition);
    expect(tool.listing.name).toBe('counted');
    expect(tool.input).toBe(tool.input);
    expect(tool.output).toBe(tool.output);
    expect(reads.input).toBe(1);
  });
});
