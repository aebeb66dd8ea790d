import { z, type ZodRawShape } from 'zod';
import type { Tool } from '@modelcontextprotocol/server';
import { compileOutputAcceptance, type OutputAcceptance } from './output-check.js';
import type { ToolDefinition } from './tool-definition.js';

/** A definition with its zod schemas built once, for every session and call to share. */
export interface PreparedTool {
  readonly definition: ToolDefinition;
  /** Closed: a parameter the schema does not declare is an error, not silently dropped. */
  readonly input: z.ZodObject;
  /** Closed at every depth: the server checks its own results strictly; the listing leaves that out. */
  readonly output?: z.ZodType;
  /** Whether a result passes `output`, answered as zod would but without its copy of the result. */
  readonly outputAccepts?: OutputAcceptance;
  /** The tools/list entry. */
  readonly listing: Tool;
}

/**
 * What a tool that takes a state handle adds to its schemas. The server resolves `handle` and takes it
 * off the arguments before they are parsed, so only the listing shows it, bare: the server's
 * instructions say what it is (tools/list is paid for every turn). Results carry it back, added after
 * the output check; the listed output schemas are open, so they leave it out.
 */
const HANDLE_INPUT = { handle: z.string().optional() };

/**
 * Each schema is built on the tool's first call (or tools/list), not at start-up: a first answer
 * waits for one tool's schemas, not thirty (issue 31.1).
 */
export function prepareTool(definition: ToolDefinition): PreparedTool {
  let input: z.ZodObject | undefined;
  let output: { schema?: z.ZodType; accepts?: OutputAcceptance } | undefined;
  let listed: Tool | undefined;
  const inputOf = () => (input ??= z.strictObject(definition.inputSchema));
  const outputOf = () => {
    if (output) return output;
    const shape = definition.outputSchema;
    const schema = shape && closed(z.object(shape));
    return (output = { schema, accepts: schema && compileOutputAcceptance(schema) });
  };
  return {
    definition,
    get input() {
      return inputOf();
    },
    get output() {
      return outputOf().schema;
    },
    get outputAccepts() {
      return outputOf().accepts;
    },
    get listing() {
      return (listed ??= listing(definition, definition.stateHandle ? inputOf().extend(HANDLE_INPUT) : inputOf()));
    },
  };
}

/**
 * draft-07 and the input/output views of the schemas, as the SDK's McpServer listed them,
 * so descriptions, required, enums, bounds and defaults reach the client. Every agent turn
 * pays for tools/list, so nothing is listed twice: no `$schema` (draft-07 is what clients
 * assume), no descriptions, `required` or `additionalProperties: false` inside output schemas (the
 * tool's description says what it returns; the server still checks every result against the closed
 * `output`, and a looser listed schema still accepts every real result), no annotations.title
 * (the tool's title), no execution.taskSupport ('forbidden' is the default), and no safe-integer bounds (the server checks its own inputs and makes its own outputs).
 */
function listing(definition: ToolDefinition, input: z.ZodObject): Tool {
  const tool: Tool = {
    name: definition.name,
    title: definition.title,
    description: definition.description,
    inputSchema: without(jsonSchema(input, 'input'), SAFE_INTEGER_BOUNDS),
    annotations: listedAnnotations(definition.annotations),
  };
  if (definition.meta) tool._meta = { ...definition.meta };
  // The listed schema comes from the declared shape, not from `closed`, whose clones carry no descriptions.
  if (definition.outputSchema) tool.outputSchema = without(jsonSchema(z.object(definition.outputSchema), 'output'), OUTPUT_LEFT_OUT);
  return tool;
}

/**
 * The hints that say something: a spec default (readOnlyHint false, idempotentHint false) is left
 * out, and so are destructiveHint and idempotentHint on a read-only tool, where the spec says
 * they carry no meaning. openWorldHint is always false here and defaults to true, so it stays.
 */
function listedAnnotations(hints: ToolDefinition['annotations']): Tool['annotations'] {
  if (hints.readOnlyHint) return { readOnlyHint: true, openWorldHint: hints.openWorldHint };
  return {
    destructiveHint: hints.destructiveHint,
    ...(hints.idempotentHint ? { idempotentHint: true } : {}),
    openWorldHint: hints.openWorldHint,
  };
}

function jsonSchema(schema: z.ZodObject, io: 'input' | 'output'): Tool['inputSchema'] {
  const { $schema: _draft, ...rest } = z.toJSONSchema(schema, { target: 'draft-07', io }) as Tool['inputSchema'] & { $schema?: string };
  return rest;
}

/** A copy of a JSON schema without the keywords `drop` picks, at every depth. */
function without<T>(schema: T, drop: (key: string, value: unknown) => boolean): T {
  if (Array.isArray(schema)) return schema.map((item: unknown) => without(item, drop)) as T;
  if (typeof schema !== 'object' || schema === null) return schema;
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(schema)) if (!drop(key, value)) out[key] = without(value, drop);
  return out as T;
}

// The checks look at the value too: `properties` maps field names, one of which may be called
// "description", "required" or "additionalProperties", and its value is a schema object, never a string,
// an array or false.
const DESCRIPTIONS = (key: string, value: unknown) => key === 'description' && typeof value === 'string';
/** Output objects are listed open: the model needs the fields, not the server's strictness about its own results. */
const CLOSEDNESS = (key: string, value: unknown) => key === 'additionalProperties' && value === false;
/** zod's `int()` lists ±2^53-1 as bounds; they say nothing the server does not enforce itself. */
const SAFE_INTEGER_BOUNDS = (key: string, value: unknown) =>
  (key === 'minimum' && value === Number.MIN_SAFE_INTEGER) || (key === 'maximum' && value === Number.MAX_SAFE_INTEGER);
/** Output fields are listed without `required`: a listed schema asks less of a result, never more. */
const REQUIRED = (key: string, value: unknown) => key === 'required' && Array.isArray(value);
const OUTPUT_LEFT_OUT = (key: string, value: unknown) =>
  DESCRIPTIONS(key, value) || CLOSEDNESS(key, value) || REQUIRED(key, value) || SAFE_INTEGER_BOUNDS(key, value);

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
