import { mkdir, mkdtemp, realpath, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadConfig } from '../support/load-config.js';
import { rootNameFor, zeroConfigRoots } from '../../src/config/zero-config-roots.js';
import { TOOLS } from '../support/tools.js';

describe('rootNameFor', () => {
  it.each([
    ['/home/me/project', 'project'],
    ['/home/me/my project', 'my-project'],
    ['/srv/.hidden', 'hidden'],
    ['/srv/été', 't'],
    ['/srv/---', 'root'],
    ['/srv/a+b@c', 'a-b-c'],
    // The README's examples of the whole rule: a trailing '-' is trimmed, a leading non-alphanumeric dropped.
    ['/srv/my dir!', 'my-dir'],
    ['/srv/.config', 'config'],
    ['/', 'root'],
  ])('%s -> %s', (directory, name) => expect(rootNameFor(directory)).toBe(name));
});

describe('zeroConfigRoots', () => {
  it('de-duplicates base names with -2, -3 in argument order', () => {
    const names = zeroConfigRoots(['/a/x', '/b/x', '/c/x', '/d/x-2'], false, TOOLS).map((root) => root.name);
    expect(names).toEqual(['x', 'x-2', 'x-3', 'x-2-2']);
  });

  it('allows every tool, or only the read-only ones', () => {
    expect(zeroConfigRoots(['/a'], false, TOOLS)[0].allowed_tools).toEqual(['*']);
    expect(zeroConfigRoots(['/a'], true, TOOLS)[0].allowed_tools).toEqual([...TOOLS.readOnly]);
  });
});

describe('loadConfig with DIR arguments', () => {
  let dir: string;
  beforeEach(async () => {
    dir = await realpath(await mkdtemp(join(tmpdir(), 'mcp-fs-zero-')));
    await mkdir(join(dir, 'one', 'x'), { recursive: true });
    await mkdir(join(dir, 'two', 'x'), { recursive: true });
  });
  afterEach(() => rm(dir, { recursive: true, force: true }));

  it('makes one root per directory, no config file, toolsets from the flag', () => {
    const config = loadConfig([join(dir, 'one', 'x'), join(dir, 'two', 'x'), '--toolsets', 'editor,repo'], {});
    expect(config.configFile).toBeUndefined();
    expect(config.roots.map((root) => [root.name, root.path])).toEqual([
      ['x', join(dir, 'one', 'x')],
      ['x-2', join(dir, 'two', 'x')],
    ]);
    expect(config.toolsets).toEqual(['editor', 'repo']);
    expect(config.settings.defaultRoot).toBe('x');
  });

  it('reads MCP_FS_TOOLSETS', () => {
    expect(loadConfig([join(dir, 'one', 'x')], { MCP_FS_TOOLSETS: 'root' }).toolsets).toEqual(['root']);
  });

  it('a missing directory is a config error naming it', () => {
    expect(() => loadConfig([join(dir, 'nope')], {})).toThrow(`config error: roots[0].path: directory does not exist: ${join(dir, 'nope')}`);
  });
});
