import type { z } from 'zod';

/** Whether a value passes a schema: true exactly when `schema.safeParse(value).success` would be. */
export type OutputAcceptance = (value: unknown) => boolean;

interface Def {
  readonly type: string;
  readonly checks?: readonly { readonly _zod: { readonly def: CheckDef } }[];
  readonly [key: string]: unknown;
}

interface CheckDef {
  readonly check: string;
  readonly [key: string]: unknown;
}

const defOf = (schema: z.ZodType): Def => (schema as unknown as { _zod: { def: Def } })._zod.def;

/** zod's isObject: what an object schema accepts as an object at all. */
const isPlainObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);

/**
 * The output check of every tool call, without zod's cost on large results. zod's parse builds a
 * copy of what it checks: for a 10,000-entry list_folder that was 5.6 MB of objects a call and,
 * with the garbage collection it caused, a tenth of the call's time. This walks the value and
 * allocates nothing.
 *
 * It understands the kinds our output schemas are made of (closed objects, arrays, strings,
 * finite numbers with bounds and integer formats, booleans, enums, literals, optional, nullable)
 * and hands any other kind, or a check it does not know, to zod itself for that part of the value,
 * so its answer is always zod's. A value it refuses goes to zod too, which words the issues.
 * `onZodPart` hears of each part left to zod (the tests hold every tool's schema to none).
 */
export function compileOutputAcceptance(schema: z.ZodType, onZodPart: (type: string) => void = () => undefined): OutputAcceptance {
  const def = defOf(schema);
  const byZod: OutputAcceptance = (value) => schema.safeParse(value).success;
  const acceptance = compileKnown(schema, def, onZodPart);
  if (acceptance !== undefined) return acceptance;
  onZodPart(def.type);
  return byZod;
}

/** The acceptance of a schema of a kind this module knows; undefined leaves it to zod. */
function compileKnown(schema: z.ZodType, def: Def, onZodPart: (type: string) => void): OutputAcceptance | undefined {
  const compile = (part: z.ZodType) => compileOutputAcceptance(part, onZodPart);
  switch (def.type) {
    case 'object':
      return objectAcceptance(def, compile);
    case 'array':
      return arrayAcceptance(def, compile);
    case 'string':
      return stringAcceptance(def);
    case 'number':
      return numberAcceptance(def);
    case 'boolean':
      return onlyKeys(def, []) && noChecks(def) ? (value) => typeof value === 'boolean' : undefined;
    case 'undefined':
      return onlyKeys(def, []) && noChecks(def) ? (value) => value === undefined : undefined;
    case 'enum':
    case 'literal': {
      if (!noChecks(def) || !onlyKeys(def, def.type === 'enum' ? ['entries'] : ['values'])) return undefined;
      // zod's own test: the set of its values has the input.
      const values = (schema as unknown as { _zod: { values?: ReadonlySet<unknown> } })._zod.values;
      if (values === undefined) return undefined;
      return (value) => values.has(value);
    }
    case 'optional': {
      if (!noChecks(def) || !onlyKeys(def, ['innerType'])) return undefined;
      const inner = compile(def.innerType as z.ZodType);
      return (value) => value === undefined || inner(value);
    }
    case 'nullable': {
      if (!noChecks(def) || !onlyKeys(def, ['innerType'])) return undefined;
      const inner = compile(def.innerType as z.ZodType);
      return (value) => value === null || inner(value);
    }
    default:
      return undefined;
  }
}

/** A closed object (tool-schemas' `closed`: catchall z.undefined()) or an open one; undefined when it is anything else. */
function objectAcceptance(def: Def, compile: (part: z.ZodType) => OutputAcceptance): OutputAcceptance | undefined {
  if (!noChecks(def) || !onlyKeys(def, ['shape', 'catchall'])) return undefined;
  const catchall = def.catchall as z.ZodType | undefined;
  if (catchall !== undefined && defOf(catchall).type !== 'undefined') return undefined;
  const shape = def.shape as Readonly<Record<string, z.ZodType>>;
  const keys = Object.keys(shape);
  const fields = keys.map((key) => compile(shape[key]));
  const known = new Set(keys);
  return (value) => {
    if (!isPlainObject(value)) return false;
    for (let i = 0; i < keys.length; i += 1) if (!fields[i](value[keys[i]])) return false;
    if (catchall === undefined) return true;
    // As zod's catchall: every enumerable key, own or inherited, that the shape does not declare. Keys in the
    // shape's order (as our results are made) are known by identity, without a look in the set.
    let next = 0;
    for (const key in value) {
      if (key === keys[next]) next += 1;
      else if (!known.has(key) && value[key] !== undefined) return false;
    }
    return true;
  };
}

function arrayAcceptance(def: Def, compile: (part: z.ZodType) => OutputAcceptance): OutputAcceptance | undefined {
  if (!noChecks(def) || !onlyKeys(def, ['element'])) return undefined;
  const element = compile(def.element as z.ZodType);
  return (value) => {
    if (!Array.isArray(value)) return false;
    for (let i = 0; i < value.length; i += 1) if (!element(value[i])) return false;
    return true;
  };
}

function stringAcceptance(def: Def): OutputAcceptance | undefined {
  if (!onlyKeys(def, [])) return undefined;
  let minimum = 0;
  let maximum = Infinity;
  for (const { _zod } of def.checks ?? []) {
    const check = _zod.def;
    if (check.check === 'min_length' && typeof check.minimum === 'number') minimum = Math.max(minimum, check.minimum);
    else if (check.check === 'max_length' && typeof check.maximum === 'number') maximum = Math.min(maximum, check.maximum);
    else return undefined;
  }
  return (value) => typeof value === 'string' && value.length >= minimum && value.length <= maximum;
}

/** z.number(): finite numbers only; `.int()` is the safeint format; min/max/positive... are greater_than and less_than. */
function numberAcceptance(def: Def): OutputAcceptance | undefined {
  if (!onlyKeys(def, [])) return undefined;
  let safeInteger = false;
  const bounds: ((value: number) => boolean)[] = [];
  for (const { _zod } of def.checks ?? []) {
    const check = _zod.def;
    if (check.check === 'number_format' && check.format === 'safeint') safeInteger = true;
    else if (check.check === 'greater_than' && typeof check.value === 'number') {
      const limit = check.value;
      bounds.push(check.inclusive === true ? (value) => value >= limit : (value) => value > limit);
    } else if (check.check === 'less_than' && typeof check.value === 'number') {
      const limit = check.value;
      bounds.push(check.inclusive === true ? (value) => value <= limit : (value) => value < limit);
    } else return undefined;
  }
  return (value) => {
    if (typeof value !== 'number' || !Number.isFinite(value)) return false;
    if (safeInteger && !Number.isSafeInteger(value)) return false;
    for (const within of bounds) if (!within(value)) return false;
    return true;
  };
}

/** The def says nothing beyond its type, its checks and the given keys (a default, a coercion, a format: zod decides). */
function onlyKeys(def: Def, allowed: readonly string[]): boolean {
  return Object.keys(def).every((key) => key === 'type' || key === 'checks' || allowed.includes(key));
}

function noChecks(def: Def): boolean {
  return (def.checks ?? []).length === 0;
}
