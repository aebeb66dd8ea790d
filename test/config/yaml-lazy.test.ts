import { createRequire } from 'node:module';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadConfig } from '../support/load-config.js';

// Issue 31.1: a server configured by its command line alone never evaluates the YAML parser.
// A file of its own: Jest's module registry is per test file, and no other test here may load yaml first.
describe('the YAML parser at start-up', () => {
  const yamlLoaded = () => Object.keys(createRequire(import.meta.url).cache).some((file) => file.includes('/node_modules/yaml/'));
  let dir: string;
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'mcp-fs-yaml-lazy-'));
  });
  afterAll(() => rm(dir, { recursive: true, force: true }));

  it('is loaded with the first config file, not for a configuration without one', async () => {
    const bare = loadConfig(['--stdio', dir], {});
    expect(bare.roots.map((root) => root.path)).toHaveLength(1);
    expect(yamlLoaded()).toBe(false);
    const file = join(dir, 'config.yaml');
    await writeFile(file, ['log_level: warn', 'roots:', '  - name: here', `    path: ${JSON.stringify(dir)}`, '    allowed_tools: ["*"]', ''].join('\n'));
    const fromFile = loadConfig(['--stdio', '--config', file], {});
    expect(yamlLoaded()).toBe(true);
    expect(fromFile.logLevel).toBe('warn');
    expect(fromFile.roots.map((root) => root.name)).toEqual(['here']);
  });
});
