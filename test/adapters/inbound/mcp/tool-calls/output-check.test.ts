import { z } from 'zod';
import { compileOutputAcceptance } from '../../../../../src/adapters/inbound/mcp/tool-calls/output-check.js';
import { prepareTool } from '../../../../../src/adapters/inbound/mcp/tool-calls/tool-schemas.js';
import { buildContainer } from '../../../../../src/composition/container.js';
import { TOKENS } from '../../../../../src/composition/tokens.js';
import { RecordingLogger } from '../../../../support/recording-logger.js';
import { compositionConfig } from '../../../../composition/app-config.js';

type Def = { type: string; [key: string]: unknown };
const defOf = (schema: z.ZodType) => (schema as unknown as { _zod: { def: Def } })._zod.def;

/** A value the schema accepts, every optional field present. */
function sampleOf(schema: z.ZodType): unknown {
  const def = defOf(schema);
  switch (def.type) {
    case 'object':
      return Object.fromEntries(Object.entries(def.shape as Record<string, z.ZodType>).map(([key, field]) => [key, sampleOf(field)]));
    case 'array':
      return [sampleOf(def.element as z.ZodType), sampleOf(def.element as z.ZodType)];
    case 'string':
      return 'abc';
    case 'number':
      return 7;
    case 'boolean':
      return true;
    case 'enum':
    case 'literal':
      return [...(schema as unknown as { _zod: { values: Set<unknown> } })._zod.values][0];
    case 'optional':
    case 'nullable':
      return sampleOf(def.innerType as z.ZodType);
    default:
      throw new Error(`no sample for a ${def.type}`);
  }
}

const REPLACEMENTS: readonly unknown[] = [undefined, null, '', 'x', 0, -1, 1.5, 7, NaN, Infinity, -Infinity, 2 ** 60, true, [], {}, ['x'], { extra: 1 }];

/** The value with each part in turn replaced, dropped, or given a key more: every shape a buggy handler could make. */
function* variantsOf(value: unknown): Generator<unknown> {
  yield value;
  for (const replacement of REPLACEMENTS) yield replacement;
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i += 1) {
      for (const variant of variantsOf(value[i])) yield value.map((item, j) => (j === i ? variant : item));
    }
    yield [];
  } else if (typeof value === 'object' && value !== null) {
    const record = value as Record<string, unknown>;
    for (const key of Object.keys(record)) {
      for (const variant of variantsOf(record[key])) yield { ...record, [key]: variant };
      const { [key]: _dropped, ...without } = record;
      yield without;
    }
    yield { ...record, unexpected: 1 };
    yield { ...record, unexpected: undefined };
    // A key more before the declared ones, between them, and the declared ones in another order.
    yield { unexpected: 1, ...record };
    const entries = Object.entries(record);
    yield Object.fromEntries([...entries.slice(0, 1), ['unexpected', 1], ...entries.slice(1)]);
    yield Object.fromEntries([...entries].reverse());
    yield Object.assign(Object.create({ inherited: 1 }) as object, record);
  }
}

function expectSameAsZod(schema: z.ZodType, values: Iterable<unknown>): number {
  const accepts = compileOutputAcceptance(schema);
  let compared = 0;
  for (const value of values) {
    const byZod = schema.safeParse(value).success;
    if (accepts(value) !== byZod) throw new Error(`differs from zod (zod says ${byZod}) on ${JSON.stringify(value)}`);
    compared += 1;
  }
  return compared;
}

const closedEntry = z.object({ name: z.string().min(1), size: z.number().int().min(0), kind: z.enum(['file', 'directory']) }).catchall(z.undefined());

describe('compileOutputAcceptance', () => {
  it('answers as zod does for every kind it knows, their checks, and parts it leaves to zod', () => {
    const schema = z
      .object({
        text: z.string().min(2).max(5),
        count: z.number().int().min(0),
        ratio: z.number().positive().lte(1),
        below: z.number().lt(10).gte(-3),
        flag: z.boolean(),
        kind: z.enum(['file', 'directory']),
        fixed: z.literal('v1'),
        maybe: z.string().optional(),
        nothing: z.number().nullable(),
        nested: z.array(z.object({ at: z.number().int() }).catchall(z.undefined())),
        entries: z.array(closedEntry),
        // Left to zod: a union, a string format, a refinement.
        either: z.union([z.string(), z.number()]),
        id: z.string().regex(/^[a-z]+$/),
        even: z.number().refine((value) => value % 2 === 0),
        open: z.object({ a: z.string() }),
      })
      .catchall(z.undefined());
    const valid = {
      text: 'abc',
      count: 0,
      ratio: 1,
      below: -3,
      flag: false,
      kind: 'file',
      fixed: 'v1',
      nothing: null,
      nested: [{ at: 1 }],
      entries: [{ name: 'a', size: 2, kind: 'directory' }],
      either: 3,
      id: 'abc',
      even: 4,
      open: { a: 'x', more: true },
    };
    expect(schema.safeParse(valid).success).toBe(true);
    expect(expectSameAsZod(schema, variantsOf(valid))).toBeGreaterThan(400);
  });

  it("leaves only unknown kinds to zod, and every tool's output schema has none", () => {
    const leftToZod: string[] = [];
    compileOutputAcceptance(z.object({ a: z.union([z.string(), z.number()]), b: z.string().email(), c: z.string() }), (type) => leftToZod.push(type));
    expect(leftToZod).toEqual(['union', 'string']);

    const definitions = buildContainer(compositionConfig(), { logger: new RecordingLogger() }).getAll(TOKENS.ToolDefinition);
    const withOutput = definitions.filter((definition) => definition.outputSchema !== undefined);
    expect(withOutput.length).toBe(definitions.length);
    for (const definition of withOutput) {
      const { output } = prepareTool(definition);
      const parts: string[] = [];
      compileOutputAcceptance(output!, (type) => parts.push(type));
      expect({ tool: definition.name, leftToZod: parts }).toEqual({ tool: definition.name, leftToZod: [] });
    }
  });

  it("answers as zod does for each tool's own output schema, on a valid result and every variant of it", () => {
    const definitions = buildContainer(compositionConfig(), { logger: new RecordingLogger() }).getAll(TOKENS.ToolDefinition);
    let compared = 0;
    for (const definition of definitions) {
      const { output } = prepareTool(definition);
      const valid = sampleOf(output!);
      expect({ tool: definition.name, valid: output!.safeParse(valid).success }).toEqual({ tool: definition.name, valid: true });
      compared += expectSameAsZod(output!, variantsOf(valid));
    }
    expect(compared).toBeGreaterThan(3_000);
  });

  it('checks every entry of a 10,000-entry result, the last one too', () => {
    const schema = z.object({ entries: z.array(closedEntry) });
    const accepts = compileOutputAcceptance(schema);
    const entries = Array.from({ length: 10_000 }, (_, i) => ({ name: `f${i}`, size: i, kind: 'file' }));
    expect(accepts({ entries })).toBe(true);
    entries[9_999] = { ...entries[9_999], size: -1 };
    expect(accepts({ entries })).toBe(false);
  });
});
