import { readdir, readFile } from 'node:fs/promises';
import { join, relative } from 'node:path';

const SRC = join(process.cwd(), 'src');
const DOMAIN = join(SRC, 'domain');

const FORBIDDEN_IN_DOMAIN = [
  /^node:/,
  /^(fs|path|os|crypto|http|child_process|url|util|stream)(\/|$)/,
  /^koa(\/|$)/,
  /^@koa\//,
  /^inversify(\/|$)/,
  /^@inversifyjs\//,
  /^reflect-metadata$/,
  /^winston(\/|$)/,
  /^convict(\/|$)/,
  /^yaml(\/|$)/,
  /^@modelcontextprotocol\//,
  /^re2(\/|$)/,
  /^zod(\/|$)/,
];

async function sourceFiles(directory: string): Promise<string[]> {
  const entries = await readdir(directory, { withFileTypes: true, recursive: true });
  return entries
    .filter((entry) => entry.isFile() && entry.name.endsWith('.ts'))
    .map((entry) => join(entry.parentPath ?? (entry as unknown as { path: string }).path, entry.name));
}

/** Every module specifier: static imports and re-exports, side-effect imports, dynamic import(). */
function importsOf(source: string): string[] {
  const specifiers: string[] = [];
  const patterns = [/\b(?:import|export)\s[^'"]*?\sfrom\s*['"]([^'"]+)['"]/g, /\bimport\s*['"]([^'"]+)['"]/g, /\bimport\s*\(\s*['"]([^'"]+)['"]\s*\)/g];
  for (const pattern of patterns) {
    for (const match of source.matchAll(pattern)) specifiers.push(match[1]);
  }
  return specifiers;
}

describe('architecture', () => {
  it('the domain imports no framework, no Node built-in and no adapter', async () => {
    const violations: string[] = [];
    for (const file of await sourceFiles(DOMAIN)) {
      const source = await readFile(file, 'utf8');
      for (const specifier of importsOf(source)) {
        const forbidden = FORBIDDEN_IN_DOMAIN.some((pattern) => pattern.test(specifier));
        const leavesDomain = specifier.startsWith('.') && !join(file, '..', specifier).startsWith(DOMAIN);
        if (forbidden || leavesDomain) violations.push(`${relative(SRC, file)} imports ${specifier}`);
      }
    }
    expect(violations).toEqual([]);
  });

  it('the domain carries no decorators', async () => {
    const decorated: string[] = [];
    for (const file of await sourceFiles(DOMAIN)) {
      if (/^\s*@[A-Za-z]+\(/m.test(await readFile(file, 'utf8'))) decorated.push(relative(SRC, file));
    }
    expect(decorated).toEqual([]);
  });

  it('container.get appears only in main.ts (the composition root hands out nothing else)', async () => {
    const users: string[] = [];
    for (const file of await sourceFiles(SRC)) {
      if (/\bcontainer\.get(All)?(Async)?\(/.test(await readFile(file, 'utf8'))) users.push(relative(SRC, file));
    }
    expect(users).toEqual(['main.ts']);
  });

  it('finds imports in every form it checks', () => {
    const source = [
      "import { a } from 'node:fs';",
      "import type { B } from '../x.js';",
      "import 'reflect-metadata';",
      "export { c } from 'zod';",
      "const d = await import('koa');",
      'import {\n  e,\n  f,\n} from "winston";',
    ].join('\n');
    expect(importsOf(source).sort()).toEqual(['../x.js', 'koa', 'node:fs', 'reflect-metadata', 'winston', 'zod']);
  });
});
