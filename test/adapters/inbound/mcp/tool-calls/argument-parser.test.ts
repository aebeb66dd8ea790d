import { z } from 'zod';
import { DomainError } from '../../../../../src/domain/errors.js';
import { describeIssues, parseArguments } from '../../../../../src/adapters/inbound/mcp/tool-calls/argument-parser.js';

const READ_FILE = z.strictObject({
  root: z.string().describe('root name'),
  path: z.string().min(1),
  offset_bytes: z.number().int().min(0).optional(),
  limit_lines: z.number().int().positive().max(1000).optional(),
  encoding: z.enum(['utf-8', 'base64']).optional(),
  mode: z.string().default('overwrite'),
});
const VIEW = z.strictObject({ path: z.string(), view_range: z.array(z.number().int()).length(2).optional() });

function rejection(schema: z.ZodType, args: Record<string, unknown>, tool = 'read_file'): string {
  try {
    parseArguments(tool, schema, args);
  } catch (error) {
    expect(error).toBeInstanceOf(DomainError);
    return (error as DomainError).toClientText();
  }
  throw new Error(`expected ${JSON.stringify(args)} to be rejected`);
}

describe('parseArguments', () => {
  it('returns the parsed arguments, defaults applied', () => {
    expect(parseArguments('read_file', READ_FILE, { root: 'workspace', path: 'a.txt', offset_bytes: 0 })).toEqual({
      root: 'workspace',
      path: 'a.txt',
      offset_bytes: 0,
      mode: 'overwrite',
    });
  });

  it('E2E-073: names each missing required parameter, in one INVALID_ARGUMENT text', () => {
    expect(rejection(READ_FILE, { path: 'a.txt' })).toBe('INVALID_ARGUMENT: invalid arguments for read_file: root: required');
    expect(rejection(READ_FILE, {})).toBe('INVALID_ARGUMENT: invalid arguments for read_file: root: required; path: required');
  });

  it('says what type was expected and what came', () => {
    expect(rejection(READ_FILE, { root: 7, path: 'a' })).toBe('INVALID_ARGUMENT: invalid arguments for read_file: root: expected string, got number');
    expect(rejection(READ_FILE, { root: null, path: ['a'] })).toBe(
      'INVALID_ARGUMENT: invalid arguments for read_file: root: expected string, got null; path: expected string, got array',
    );
    expect(rejection(READ_FILE, { root: 'w', path: 'a', offset_bytes: '10' })).toMatch(/offset_bytes: expected number, got string$/);
  });

  it('shows the value when an integer was expected', () => {
    expect(rejection(READ_FILE, { root: 'w', path: 'a', offset_bytes: 1.5 })).toMatch(/: offset_bytes: expected integer, got 1\.5$/);
  });

  it('states the bound that was broken', () => {
    expect(rejection(READ_FILE, { root: 'w', path: 'a', offset_bytes: -1 })).toBe(
      'INVALID_ARGUMENT: invalid arguments for read_file: offset_bytes: must be >= 0',
    );
    expect(rejection(READ_FILE, { root: 'w', path: 'a', limit_lines: 0 })).toMatch(/: limit_lines: must be > 0$/);
    expect(rejection(READ_FILE, { root: 'w', path: 'a', limit_lines: 1001 })).toMatch(/: limit_lines: must be <= 1000$/);
    expect(rejection(READ_FILE, { root: 'w', path: '' })).toMatch(/: path: must not be empty$/);
  });

  it('lists the allowed values of an enum', () => {
    expect(rejection(READ_FILE, { root: 'w', path: 'a', encoding: 'latin1' })).toMatch(/: encoding: must be one of: utf-8, base64$/);
  });

  it('rejects an unknown parameter by name, so a misspelt one is not silently ignored', () => {
    expect(rejection(READ_FILE, { root: 'w', path: 'a', offset: 3, limit: 1 })).toBe(
      'INVALID_ARGUMENT: invalid arguments for read_file: unknown parameter: offset; unknown parameter: limit',
    );
  });

  it('names the element of an array parameter', () => {
    expect(rejection(VIEW, { path: 'a', view_range: [1, 'x'] }, 'view')).toBe(
      'INVALID_ARGUMENT: invalid arguments for view: view_range[1]: expected number, got string',
    );
    expect(rejection(VIEW, { path: 'a', view_range: [1.5, 2] }, 'view')).toMatch(/: view_range\[0\]: expected integer, got 1\.5$/);
    expect(rejection(VIEW, { path: 'a', view_range: [1] }, 'view')).toMatch(/: view_range: must have exactly 2 items$/);
    expect(rejection(VIEW, { path: 'a', view_range: 3 }, 'view')).toMatch(/: view_range: expected array, got number$/);
  });

  it('reports every problem of one call together', () => {
    expect(rejection(READ_FILE, { path: 5, offset_bytes: -2, extra: true })).toBe(
      'INVALID_ARGUMENT: invalid arguments for read_file: root: required; path: expected string, got number; offset_bytes: must be >= 0; unknown parameter: extra',
    );
  });
});

describe('describeIssues', () => {
  it('names nested fields with dots and indexes', () => {
    const schema = z.object({ entries: z.array(z.object({ name: z.string() }).strict()) });
    const input = { entries: [{ name: 'a' }, { name: 2, size: 1 }] };
    const parsed = schema.safeParse(input);
    expect(parsed.success).toBe(false);
    expect(describeIssues(parsed.error!.issues, input)).toBe('entries[1].name: expected string, got number; entries[1]: unknown field: size');
  });

  it('calls a field an undefined catchall refuses unexpected', () => {
    const schema = z.object({ size: z.number() }).catchall(z.undefined());
    const input = { size: 1, host_path: '/srv' };
    const parsed = schema.safeParse(input);
    expect(describeIssues(parsed.error!.issues, input)).toBe('host_path: unexpected field');
  });

  it('falls back to the zod message for other issues', () => {
    const schema = z.object({ pattern: z.string().regex(/^[a-z]+$/) });
    const input = { pattern: 'A' };
    const parsed = schema.safeParse(input);
    expect(describeIssues(parsed.error!.issues, input)).toBe(`pattern: ${parsed.error!.issues[0].message}`);
  });
});
