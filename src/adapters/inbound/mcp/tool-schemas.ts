import { z, type ZodRawShape } from 'zod';
import type { Tool } from '@modelcontextprotocol/sdk/types.js';
import type { ToolDefinition } from './tool-definition.js';

/** A definition with its zod schemas built once, for every session and call to share. */
export interface PreparedTool {
  readonly definition: ToolDefinition;
  /** Closed: a parameter the schema does not declare is an error, not silently dropped. */
  readonly input: z.ZodObject;
  /** Closed at every depth, like the listed outputSchema (additionalProperties: false). */
  readonly output?: z.ZodType;
  /** The tools/list entry. */
  readonly listing: Tool;
}

export function prepareTool(definition: ToolDefinition): PreparedTool {
  const input = z.strictObject(definition.inputSchema);
  let listed: Tool | undefined;
  return {
    definition,
    input,
    output: definition.outputSchema && closed(z.object(definition.outputSchema)),
    get listing() {
      return (listed ??= listing(definition, input));
    },
  };
}

/**
 * draft-07 and the input/output views of the schemas, as the SDK's McpServer listed them,
 * so descriptions, required, enums, bounds and defaults reach the client.
 */
function listing(definition: ToolDefinition, input: z.ZodObject): Tool {
  const tool: Tool = {
    name: definition.name,
    title: definition.title,
    description: definition.description,
    inputSchema: jsonSchema(input, 'input'),
    annotations: { title: definition.title, ...definition.annotations },
    execution: { taskSupport: 'forbidden' },
  };
  // The listed schema comes from the declared shape, not from `closed`, whose clones carry no descriptions.
  if (definition.outputSchema) tool.outputSchema = jsonSchema(z.object(definition.outputSchema), 'output');
  return tool;
}

function jsonSchema(schema: z.ZodObject, io: 'input' | 'output'): Tool['inputSchema'] {
  return z.toJSONSchema(schema, { target: 'draft-07', io }) as Tool['inputSchema'];
}

/**
 * Rejects fields the schema does not declare, in nested objects too. Undefined is let
 * through: JSON drops such a field, so it never reaches the client.
 */
function closed(schema: z.ZodType): z.ZodType {
  if (schema instanceof z.ZodObject) {
    const shape: Record<string, z.ZodType> = {};
    for (const [key, field] of Object.entries(schema.shape as ZodRawShape)) shape[key] = closed(field as z.ZodType);
    return schema.clone({ ...schema.def, shape, catchall: z.undefined() });
  }
  if (schema instanceof z.ZodArray) return schema.clone({ ...schema.def, element: closed(schema.element as z.ZodType) });
  if (schema instanceof z.ZodOptional) return closed(schema.unwrap() as z.ZodType).optional();
  if (schema instanceof z.ZodNullable) return closed(schema.unwrap() as z.ZodType).nullable();
  return schema;
}
