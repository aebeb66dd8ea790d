import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { TOOL_NAMES } from '../../src/domain/tool-names.js';

const ROOT = process.cwd();

function filesUnder(directory: string): string[] {
  return readdirSync(join(ROOT, directory), { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile() && entry.name.endsWith('.ts'))
    .map((entry) => relative(ROOT, join(entry.parentPath, entry.name)));
}

const naming = (name: string) => new RegExp(`\\b${name}\\b`);
const kebab = (name: string) => name.replaceAll('_', '-');
const camel = (name: string) => name.replace(/_([a-z])/g, (_, letter: string) => letter.toUpperCase());

/**
 * The files adding a tool takes (docs/architecture.md, "Add a tool"), checked on stat_file, the
 * model the guide follows: its use case, its spec, its test and docs/tools.md, plus one catalog line.
 * No module, binding, registry or name list anywhere else names it.
 */
describe('adding a tool', () => {
  const source = filesUnder('src');

  it('stat_file is named in src by its use case, its spec and its catalog line only (the registry discovers its file)', () => {
    const namingStat = source.filter((file) => naming('stat_file').test(readFileSync(join(ROOT, file), 'utf8'))).sort();
    expect(namingStat).toEqual([
      'src/adapters/inbound/mcp/tools/stat-file.tool.ts',
      'src/domain/tool-names.ts',
      'src/domain/tools/stat-file.ts',
    ]);
    // No module binds its use case or its definition by hand: the spec's loop does.
    const namingClass = source.filter((file) => /\bStatFile\b|\bstatFileTool\b/.test(readFileSync(join(ROOT, file), 'utf8'))).sort();
    expect(namingClass).toEqual(['src/adapters/inbound/mcp/tools/stat-file.tool.ts', 'src/domain/tools/stat-file.ts']);
  });

  it.each(TOOL_NAMES.map((name) => [name]))('%s has a spec file exporting its spec, a test, and a heading or table row in docs/tools.md', (name) => {
    const spec = readFileSync(join(ROOT, 'src/adapters/inbound/mcp/tools', `${kebab(name)}.tool.ts`), 'utf8');
    expect(spec).toContain(`export const ${camel(name)}Spec = toolSpec({\n  name: '${name}',`);
    const tests = filesUnder('test').filter((file) => naming(name).test(readFileSync(join(ROOT, file), 'utf8')));
    expect(tests.length).toBeGreaterThan(0);
    expect(readFileSync(join(ROOT, 'docs/tools.md'), 'utf8')).toMatch(new RegExp(`^(###|\\|).*\`${name}\`|^### ${name}$`, 'm'));
  });
});
