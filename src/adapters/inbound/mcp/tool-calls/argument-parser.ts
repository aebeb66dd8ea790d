import type { z } from 'zod';
import { DomainError } from '../../../../domain/errors.js';

type Issue = z.core.$ZodIssue;
type IssuePath = readonly PropertyKey[];

/**
 * Checks a call's arguments against the tool's input schema, before any tool code runs.
 * A failure is INVALID_ARGUMENT naming every bad parameter, so an agent can fix all of
 * them in one retry: `invalid arguments for read_file: root: required; offset_bytes: must be >= 0`.
 */
export function parseArguments(toolName: string, schema: z.ZodType, raw: Record<string, unknown>): Record<string, unknown> {
  const parsed = schema.safeParse(raw);
  if (parsed.success) return parsed.data as Record<string, unknown>;
  throw new DomainError('INVALID_ARGUMENT', `invalid arguments for ${toolName}: ${describeIssues(parsed.error.issues, raw)}`);
}

/** One `where: why` clause per issue, joined with '; '. `input` is what was parsed, to name what was received. */
export function describeIssues(issues: readonly Issue[], input: unknown): string {
  const clauses: string[] = [];
  const mistyped = new Set<string>();
  for (const issue of issues) {
    const where = pathText(issue.path);
    // zod goes on checking a value of the wrong type (`path: []` also fails the string's min
    // length); the type error alone is what the caller needs.
    if (mistyped.has(where)) continue;
    if (issue.code === 'invalid_type') mistyped.add(where);
    if (issue.code === 'unrecognized_keys') {
      const noun = issue.path.length === 0 ? 'parameter' : 'field';
      for (const key of issue.keys) clauses.push(`${prefix(where)}unknown ${noun}: ${key}`);
      continue;
    }
    clauses.push(`${prefix(where)}${reason(issue, valueAt(input, issue.path))}`);
  }
  return clauses.join('; ');
}

function reason(issue: Issue, value: unknown): string {
  switch (issue.code) {
    case 'invalid_type':
      // An output schema closed with catchall(undefined) reports an undeclared field this way.
      if (issue.expected === 'undefined') return 'unexpected field';
      if (value === undefined) return 'required';
      return `expected ${typeName(issue.expected)}, got ${received(value)}`;
    case 'too_small':
      return bound(issue.origin, issue.minimum, issue.inclusive, issue.exact, 'min');
    case 'too_big':
      return bound(issue.origin, issue.maximum, issue.inclusive, issue.exact, 'max');
    case 'invalid_value':
      return issue.values.length === 1 ? `must be ${JSON.stringify(issue.values[0])}` : `must be one of: ${issue.values.map(String).join(', ')}`;
    default:
      return issue.message;
  }
}

function bound(origin: string, limit: number | bigint, inclusive: boolean | undefined, exact: boolean | undefined, side: 'min' | 'max'): string {
  const unit = origin === 'string' ? 'characters' : origin === 'array' || origin === 'set' ? 'items' : undefined;
  if (unit === undefined) {
    const operator = side === 'min' ? (inclusive ? '>=' : '>') : inclusive ? '<=' : '<';
    return `must be ${operator} ${limit}`;
  }
  if (exact) return `must have exactly ${limit} ${unit}`;
  if (side === 'min' && unit === 'characters' && Number(limit) === 1) return 'must not be empty';
  return `must have at ${side === 'min' ? 'least' : 'most'} ${limit} ${unit}`;
}

function typeName(expected: string): string {
  return expected === 'int' ? 'integer' : expected;
}

function received(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'array';
  // `expected integer, got number` would read as a contradiction; the value says what is wrong.
  if (typeof value === 'number' && !Number.isSafeInteger(value)) return String(value);
  return typeof value;
}

function valueAt(input: unknown, path: IssuePath): unknown {
  let current = input;
  for (const key of path) {
    if (current === null || typeof current !== 'object' || !Object.hasOwn(current, key)) return undefined;
    current = (current as Record<PropertyKey, unknown>)[key];
  }
  return current;
}

/** `view_range[1]`, `entries[0].name`. */
function pathText(path: IssuePath): string {
  let text = '';
  for (const key of path) {
    if (typeof key === 'number') text += `[${key}]`;
    else text += text === '' ? String(key) : `.${String(key)}`;
  }
  return text;
}

function prefix(where: string): string {
  return where === '' ? '' : `${where}: `;
}
