import { mkdir, mkdtemp, realpath, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { domainRootsOf } from '../../src/config/domain-roots.js';
import { ConfigError, loadConfig as loadWith } from '../../src/config/load-config.js';
import type { RootProbes } from '../../src/config/root-probe.js';
import { TOOLS } from '../support/tools.js';
import { loadConfig } from '../support/load-config.js';
import { parseCommandLine } from '../../src/cli/command-line.js';

let dir: string;

beforeEach(async () => {
  dir = await realpath(await mkdtemp(join(tmpdir(), 'mcp-fs-archive-config-')));
  await mkdir(join(dir, 'ws'));
  await writeFile(join(dir, 'release.tar'), new Uint8Array(1024));
});

afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

async function configFile(roots: string): Promise<string> {
  const file = join(dir, 'config.yaml');
  await writeFile(file, `journal: { enabled: false }\nroots:\n${roots}`);
  return file;
}

function messageOf(run: () => unknown): string {
  try {
    run();
  } catch (error) {
    expect(error).toBeInstanceOf(ConfigError);
    return (error as Error).message;
  }
  throw new Error('expected a ConfigError');
}

describe('roots[].archive', () => {
  it('mounts an archive by its real path, read-only: write tools leave its allowlist and list_roots shows what is left', async () => {
    const file = await configFile('  - { name: ws, path: ws, allowed_tools: ["*"] }\n  - { name: rel, archive: release.tar, allowed_tools: ["*"] }\n');
    const config = loadConfig(['--config', file], {});
    expect(config.roots[1]).toEqual({ name: 'rel', path: join(dir, 'release.tar'), allowedTools: ['*'], archive: true });
    const [ws, rel] = domainRootsOf(config.roots, TOOLS);
    expect(ws.readOnly).toBeUndefined();
    expect(ws.allowedTools.has('write_file')).toBe(true);
    expect(rel.readOnly).toBe(true);
    expect(rel.allowedTools.has('read_file')).toBe(true);
    expect([...TOOLS.writing].filter((tool) => rel.allowedTools.has(tool))).toEqual([]);
    expect(rel.configuredTools).toEqual([...rel.allowedTools]);
  });

  it('refuses a root with both path and archive, a missing archive, and a directory given as an archive', async () => {
    let file = await configFile('  - { name: rel, path: ws, archive: release.tar, allowed_tools: ["*"] }\n');
    expect(messageOf(() => loadConfig(['--config', file], {}))).toBe('config error: roots[0]: give path (a directory) or archive (a .tar file), not both');
    file = await configFile('  - { name: rel, archive: missing.tar, allowed_tools: ["*"] }\n');
    expect(messageOf(() => loadConfig(['--config', file], {}))).toBe(`config error: roots[0].archive: archive does not exist: ${join(dir, 'missing.tar')}`);
    file = await configFile('  - { name: rel, archive: ws, allowed_tools: ["*"] }\n');
    expect(messageOf(() => loadConfig(['--config', file], {}))).toMatch(/^config error: roots\[0\]\.archive: not a regular file/);
  });

  it('asks the probes, never the disk, whether a root is there', async () => {
    const asked: string[] = [];
    const probes: RootProbes = {
      directory: (configured) => (asked.push(`directory ${configured}`), { realPath: '/remote/ws' }),
      archive: (configured) => (asked.push(`archive ${configured}`), { problem: 'no such object in the bucket' }),
    };
    let file = await configFile('  - { name: ws, path: not-on-disk, allowed_tools: ["*"] }\n');
    expect(loadWith(parseCommandLine(['--config', file], {}), ['--config', file], {}, probes, TOOLS).roots[0].path).toBe('/remote/ws');
    file = await configFile('  - { name: rel, archive: release.tar, allowed_tools: ["*"] }\n');
    expect(messageOf(() => loadWith(parseCommandLine(['--config', file], {}), ['--config', file], {}, probes, TOOLS))).toBe('config error: roots[0].archive: no such object in the bucket');
    expect(asked).toEqual([`directory ${join(dir, 'not-on-disk')}`, `archive ${join(dir, 'release.tar')}`]);
  });
});
