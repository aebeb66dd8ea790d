import { basename, resolve } from 'node:path';
import type { ToolCatalog } from '../domain/tool-catalog.js';
import { ALL_TOOLS_WILDCARD } from '../domain/tool-facts.js';
import type { RootConfig } from './app-config.js';
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

/**
 * One root per directory, named after its base name; repeats get -2, -3... in argument order. Each
 * allows every tool, or with `readOnly` the catalog's read-only ones.
 */
export function zeroConfigRoots(directories: readonly string[], readOnly: boolean, tools: ToolCatalog): RawRoot[] {
  const taken = new Set<string>();
  return directories.map((directory) => {
    const base = rootNameFor(directory);
    let name = base;
    for (let suffix = 2; taken.has(name); suffix += 1) name = `${base}-${suffix}`;
    taken.add(name);
    return { name, path: resolve(directory), allowed_tools: readOnly ? [...tools.readOnly] : [ALL_TOOLS_WILDCARD] };
  });
}

/** A folder the client shared: the path it named (which gives the root its name) and where that really is. */
export interface SharedFolder {
  readonly named: string;
  readonly realPath: string;
}

/**
 * The client's folders as roots, named by the same rule as DIR arguments (from the path the client
 * named, so a link keeps the name the user sees) and confined to the real path, resolved once here.
 */
export function clientRootConfigs(folders: readonly SharedFolder[], readOnly: boolean, tools: ToolCatalog): RootConfig[] {
  return zeroConfigRoots(folders.map((folder) => folder.named), readOnly, tools).map((root, index) => ({
    name: root.name,
    path: folders[index].realPath,
    allowedTools: root.allowed_tools,
  }));
}
