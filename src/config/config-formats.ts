import { createRequire } from 'node:module';
import convict from 'convict';
import { MAX_MAX_RESULT_BYTES } from '../domain/result-budget.js';
import { TOOLSETS } from '../domain/tool-facts.js';
import { authFormats } from './auth-schema.js';

// The YAML parser is loaded with the first config file, not at start-up: a server configured by its
// command line and environment alone (`--stdio DIR`) never evaluates it (issue 31: ~20 ms of CPU).
// scripts/build.mjs bundles this require; under tsc and Jest it is Node's.
const requireYaml = createRequire(import.meta.url);

/** The formats convict checks config values with (schema.ts names them), and the parser of the config file. */

// Root names appear as the first segment of /<root>/... paths in the editor tools, so
// they are restricted to characters that can never be read as a path separator or '..'.
const ROOT_NAME = /^[A-Za-z0-9][A-Za-z0-9._-]*$/;
const ROOT_KEYS = new Set(['name', 'path', 'archive', 'allowed_tools']);
const HOST_NAME = /^(\*|\[[0-9a-f:.]+\]|[a-z0-9_.-]+)$/;

function isMapping(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function validateRoot(entry: unknown, at: string, seen: Set<string>): void {
  if (!isMapping(entry)) throw new Error(`${at}: must be a mapping with name, path and allowed_tools`);
  const unknownKey = Object.keys(entry).find((key) => !ROOT_KEYS.has(key));
  if (unknownKey !== undefined) throw new Error(`${at}.${unknownKey}: unknown key (expected name, path or archive, allowed_tools)`);

  const { name, path, archive, allowed_tools: tools } = entry;
  if (typeof name !== 'string' || name === '') throw new Error(`${at}.name: is required and must be a non-empty string`);
  if (!ROOT_NAME.test(name)) {
    throw new Error(`${at}.name: invalid root name "${name}" (use letters, digits, '.', '_' and '-', starting with a letter or digit)`);
  }
  if (seen.has(name)) throw new Error(`${at}.name: duplicate root name "${name}"`);
  seen.add(name);

  if (path !== undefined && archive !== undefined) throw new Error(`${at}: give path (a directory) or archive (a .tar file), not both`);
  if (archive !== undefined) {
    if (typeof archive !== 'string' || archive === '') throw new Error(`${at}.archive: must be a non-empty string`);
  } else if (typeof path !== 'string' || path === '') throw new Error(`${at}.path: is required and must be a non-empty string`);

  if (!Array.isArray(tools)) throw new Error(`${at}.allowed_tools: is required and must be a list of tool names (["*"] allows every tool)`);
  const notString = tools.findIndex((tool) => typeof tool !== 'string');
  if (notString >= 0) throw new Error(`${at}.allowed_tools[${notString}]: must be a string`);
  // Whether each name is a tool is loadConfig's check, against the tool catalog it is given.
}

/** Bytes and counts: strict integers, so "10MB" is an error rather than 10. */
function positiveIntFormat(value: unknown): void {
  if (typeof value !== 'number' || !Number.isSafeInteger(value) || value <= 0) throw new Error('must be a positive integer');
}

function flagCoerce(value: string): boolean | string {
  const lower = value.trim().toLowerCase();
  if (['true', '1', 'yes', 'on'].includes(lower)) return true;
  if (['false', '0', 'no', 'off'].includes(lower)) return false;
  return value;
}

/** Registers the config's value formats and its YAML parser with convict (once, before the schema is used). */
export function registerConfigFormats(): void {
  convict.addFormats({
    ...authFormats,
    'positive-int': {
      validate: positiveIntFormat,
      coerce: (value: string) => (value.trim() === '' ? Number.NaN : Number(value)),
    },
    'result-bytes': {
      validate: (value: unknown) => {
        positiveIntFormat(value);
        if ((value as number) > MAX_MAX_RESULT_BYTES) {
          throw new Error(`must be at most ${MAX_MAX_RESULT_BYTES} (two copies of a result must fit in a 10 MiB MCP message)`);
        }
      },
      coerce: (value: string) => (value.trim() === '' ? Number.NaN : Number(value)),
    },
    flag: {
      validate: (value: unknown) => {
        if (typeof value !== 'boolean') throw new Error('must be true or false');
      },
      coerce: flagCoerce,
    },
    'host-list': {
      validate: (value: unknown) => {
        if (!Array.isArray(value)) throw new Error('must be a list of host names');
        value.forEach((host, index) => {
          if (typeof host !== 'string' || !HOST_NAME.test(host.toLowerCase())) {
            throw new Error(`[${index}]: "${String(host)}" is not a host name (no scheme or port; IPv6 in brackets; "*" allows any host)`);
          }
        });
      },
      coerce: (value: string) => value.split(',').map((host) => host.trim()).filter((host) => host !== ''),
    },
    'session-store-url': {
      validate: (value: unknown) => {
        if (typeof value !== 'string') throw new Error('must be a string');
        if (value !== '' && !/^rediss?:\/\/[^\s]+$/.test(value)) throw new Error('must be empty (in-memory) or a redis:// URL such as redis://redis:6379/0');
      },
    },
    'redis-key-prefix': {
      validate: (value: unknown) => {
        if (typeof value !== 'string' || !/^[A-Za-z0-9:_.-]{1,64}$/.test(value)) throw new Error('must be 1 to 64 letters, digits or : _ . - (such as mcp-fs:journal:)');
      },
    },
    toolsets: {
      validate: (value: unknown) => {
        if (!Array.isArray(value) || value.length === 0) throw new Error(`must be a non-empty list of toolsets (${TOOLSETS.join(', ')})`);
        value.forEach((toolset, index) => {
          if (!(TOOLSETS as readonly unknown[]).includes(toolset)) {
            throw new Error(`[${index}]: unknown toolset "${String(toolset)}" (expected ${TOOLSETS.join(', ')})`);
          }
        });
      },
      coerce: (value: string) => value.split(',').map((toolset) => toolset.trim()).filter((toolset) => toolset !== ''),
    },
    roots: {
      validate: (value: unknown) => {
        if (!Array.isArray(value)) throw new Error('must be a list of roots');
        const seen = new Set<string>();
        value.forEach((entry, index) => validateRoot(entry, `[${index}]`, seen));
      },
    },
  });

  // YAML is a superset of JSON, so it also serves files with other extensions.
  convict.addParser({
    extension: ['yml', 'yaml', '*'],
    parse: (text: string) => {
      const document: unknown = (requireYaml('yaml') as typeof import('yaml')).parse(text);
      if (!isMapping(document)) throw new Error('the file must hold a YAML mapping of config keys');
      return document;
    },
  });
}
