import { basename, resolve } from 'node:path';
import { READ_ONLY_TOOLS, ALL_TOOLS_WILDCARD } from '../domain/tool-names.js';
import type { RawRoot } from './schema.js';

/**
 * A directory's base name turned into a valid root name (letters, digits, '.', '_' and '-',
 * starting with a letter or digit): anything else becomes '-' (trimmed at the ends); nothing usable becomes "root".
 */
export function rootNameFor(directory: string): string {
  const name = basename(resolve(directory))
    .replace(/[^A-Za-z0-9._-]+/g, '-')
    .replace(/^[^A-Za-z0-9]+/, '')
    .replace(/-+$/, '');
  return name === '' ? 'root' : name;
}

/** One root per directory, named after its base name; repeats get -2, -3... in argument order. */
export function zeroConfigRoots(directories: readonly string[], readOnly: boolean): RawRoot[] {
  const taken = new Set<string>();
  return directories.map((directory) => {
    const base = rootNameFor(directory);
    let name = base;
    for (let suffix = 2; taken.has(name); suffix += 1) name = `${base}-${suffix}`;
    taken.add(name);
    return { name, path: resolve(directory), allowed_tools: readOnly ? [...READ_ONLY_TOOLS] : [ALL_TOOLS_WILDCARD] };
  });
}
