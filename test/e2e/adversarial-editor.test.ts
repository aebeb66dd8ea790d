import { promises as fs } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { snapshotTree, writeTree } from '../support/fixtures.js';
import { mkfifo, useArena } from './adversarial-harness.js';

// Red team: the /<root>/<path> namespace of view, str_replace, create_file, file_read,
// file_write, file_list and change_directory, and the view-before-edit gate.

const { live, arena, host, call, link, relativeTo } = useArena({
  roots: [
    { name: 'workspace', allowedTools: ['*'] },
    { name: 'other', allowedTools: ['*'] },
    { name: 'readonly', allowedTools: ['view', 'file_read', 'file_list'] },
  ],
});
let second: Client;

beforeAll(async () => {
  second = await live.server.connect();
});

beforeEach(async () => {
  await writeTree(live.root, { 'a.txt': 'alpha\n', 'sub/b.txt': 'beta\n' });
  await writeTree(live.server.rootPath('other'), { 'o.txt': 'other\n' });
  await writeTree(live.server.rootPath('readonly'), { 'r.txt': 'readonly\n' });
  await call('change_directory', { path: '/workspace' });
});

/** Every namespace tool aimed at `path` (str_replace after a view of the same path). */
function everyTool(path: string): [string, Record<string, unknown>][] {
  return [
    ['view', { path }],
    ['view', { path, view_range: [1, 1] }],
    ['file_read', { path }],
    ['file_list', { path }],
    ['change_directory', { path }],
    ['str_replace', { path, old_str: 'SECRET', new_str: 'pwned' }],
    ['str_replace', { path, edits: [{ old_str: 'SECRET', new_str: 'pwned' }], dry_run: true }],
    ['create_file', { path, content: 'pwned' }],
    ['create_file', { path, content: 'pwned', dry_run: true }],
    ['file_write', { path, content: 'pwned' }],
  ];
}

async function expectEveryToolFails(path: string): Promise<void> {
  const roots = await Promise.all(live.server.config.roots.map((root) => snapshotTree(root.path)));
  const cwd = (await call('change_directory', { path: '.' })).structured.cwd;
  for (const [name, args] of everyTool(path)) {
    if (name === 'str_replace') await call('view', { path });
    const outcome = await call(name, args);
    expect({ name, path, isError: outcome.isError }).toEqual({ name, path, isError: true });
  }
  expect(await Promise.all(live.server.config.roots.map((root) => snapshotTree(root.path)))).toEqual(roots);
  expect((await call('change_directory', { path: '.' })).structured.cwd).toBe(cwd);
}

describe('namespace traversal', () => {
  it.each([
    '..', '../..', '../../etc/passwd', '/..', '/../workspace/a.txt', '/workspace/..', '/workspace/../other/o.txt',
    'sub/../../other/o.txt', '/workspace/sub/../../readonly/r.txt', '/other/../workspace/a.txt', '/workspace/./../workspace',
  ])('%j never leaves a root', (path) => expectEveryToolFails(path));

  it('host paths, NUL bytes and overlong names are refused without touching anything', async () => {
    for (const path of [host('a.txt'), join(arena.outside, 'secret.txt'), '/etc/passwd', '/workspace/a.txt\0', `/workspace/${'x'.repeat(256)}`, `/${'x'.repeat(5000)}`]) {
      await expectEveryToolFails(path);
    }
  });

  it.each(['/__proto__', '/constructor/x', '/hasOwnProperty', '/toString/a.txt', '/workspace/__proto__'])('%j is an ordinary path', async (path) => {
    for (const [name, args] of everyTool(path)) await call(name, args);
    // A file that happens to be called __proto__ is still gated and edited like any other.
    if (path.startsWith('/workspace/')) {
      expect(await fs.readFile(host('__proto__'), 'utf8')).toBe('pwned');
      expect((await call('str_replace', { path, old_str: 'pwned', new_str: 'fine' })).isError).toBe(false);
    }
  });

  it('the list of roots shows names only', async () => {
    for (const [name, args] of [['view', { path: '/' }], ['file_list', { path: '/' }], ['file_list', { path: '/', pattern: '*' }]] as [string, Record<string, unknown>][]) {
      expect((await call(name, args)).isError).toBe(false);
    }
    for (const [name, args] of [['create_file', { path: '/x', content: 'x' }], ['file_write', { path: '/', content: 'x' }], ['str_replace', { path: '/', old_str: 'a' }]] as [string, Record<string, unknown>][]) {
      expect((await call(name, args)).isError).toBe(true);
    }
    expect((await call('change_directory', { path: '/' })).isError).toBe(true);
  });

  it('allowlists hold whatever the spelling of the path or the working directory', async () => {
    const before = await snapshotTree(live.server.rootPath('readonly'));
    await call('change_directory', { path: '/readonly' });
    for (const path of ['r.txt', './r.txt', '/readonly/r.txt', '/readonly//r.txt', 'new.txt']) {
      await call('view', { path });
      for (const [name, args] of [
        ['str_replace', { path, old_str: 'readonly', new_str: 'pwned' }],
        ['create_file', { path, content: 'pwned' }],
        ['file_write', { path, content: 'pwned' }],
      ] as [string, Record<string, unknown>][]) {
        expect((await call(name, args)).text).toMatch(/^TOOL_NOT_ALLOWED: /);
      }
    }
    expect(await snapshotTree(live.server.rootPath('readonly'))).toEqual(before);
  });
});

describe('links in the namespace', () => {
  it('a link named like another root, pointing at its directory, is not a way into it', async () => {
    await link(live.server.rootPath('other'), 'other');
    await link(live.server.rootPath('readonly'), 'readonly');
    for (const path of ['/workspace/other', '/workspace/other/o.txt', 'readonly/r.txt', '/workspace/readonly']) await expectEveryToolFails(path);
    const listing = await call('view', { path: '/workspace' });
    expect(listing.text).toContain('other -> /other');
  });

  it('links out of the root (absolute, relative, dangling, parent, /proc) refuse every tool', async () => {
    await link(relativeTo(arena.outside, 'out'), 'out');
    await link(relativeTo(join(arena.outside, 'secret.txt'), 'leak.txt'), 'leak.txt');
    await link(relativeTo(join(arena.outside, 'planted.txt'), 'dangling.txt'), 'dangling.txt');
    await link(relativeTo(join(arena.outside, 'planted-dir'), 'dangling-dir'), 'dangling-dir');
    await link('..', 'up');
    await link('/proc/self/root', 'hostroot');
    await link('/proc/self/cwd', 'cwd');
    for (const path of ['out', 'out/secret.txt', 'out/sub', 'leak.txt', 'dangling.txt', 'dangling-dir/x.txt', 'up', 'up/x', 'hostroot/etc/passwd', 'cwd']) {
      await expectEveryToolFails(path);
    }
    // Listings show the links without following them, and none of their texts.
    for (const [name, args] of [['view', { path: '.' }], ['file_list', { path: '.' }], ['file_list', { path: '.', pattern: '*' }]] as [string, Record<string, unknown>][]) {
      expect((await call(name, args)).isError).toBe(false);
    }
    const listing = (await call('view', { path: '.' })).text;
    for (const name of ['out', 'leak.txt', 'dangling.txt', 'dangling-dir', 'up', 'hostroot', 'cwd']) expect(listing).toContain(`${name} -> [outside the root]`);
  });

  it('a link to an absolute host path in a root is shown as a namespace path, never as the host path', async () => {
    await link(join(live.root, 'a.txt'), 'abs-inside');
    await link(`${live.root}/../${relative(dirname(live.root), live.server.rootPath('other'))}/o.txt`, 'abs-other');
    await link(`${live.root}//sub/./b.txt`, 'abs-messy');
    for (const [name, args] of [['view', { path: '.' }], ['file_list', { path: '.' }]] as [string, Record<string, unknown>][]) {
      const outcome = await call(name, args);
      expect(outcome.isError).toBe(false);
    }
    const listing = (await call('view', { path: '.' })).text;
    for (const line of ['abs-inside -> /workspace/a.txt', 'abs-messy -> /workspace/sub/b.txt', 'abs-other -> /other/o.txt']) expect(listing).toContain(line);
  });

  // Was a finding: a link whose text reaches a root through an alias of its host path (here
  // /proc/self/root<root host path>/a.txt) is "outside every root" lexically, and view and
  // file_list printed its text as written, and with it the root's host directory. The text of a
  // link leaving its root is now never shown, only a marker. (Following it is refused.)
  it('a link through an alias of the root host path does not reveal that path in listings', async () => {
    await link(`/proc/self/root${live.root}/a.txt`, 'abs-alias');
    await link(`/proc/self/root${live.server.rootPath('other')}/o.txt`, 'other-alias');
    const listing = await call('view', { path: '.' });
    expect(listing.isError).toBe(false);
    for (const line of ['abs-alias -> [outside the root]', 'other-alias -> [outside the root]']) expect(listing.text).toContain(line);
    const listed = await call('file_list', { path: '.' });
    expect(listed.isError).toBe(false);
    expect(listed.structured.entries.find((entry: { name: string }) => entry.name === 'abs-alias').target).toBe('[outside the root]');
    expect(JSON.stringify([listing, listed])).not.toContain('/proc/self/root');
    expect((await call('file_read', { path: 'abs-alias' })).isError).toBe(true);
  });

  it('a file viewed, then swapped on the host for a link to outside, is not edited through the link', async () => {
    expect((await call('view', { path: 'a.txt' })).isError).toBe(false);
    await fs.rm(host('a.txt'));
    await link(join(arena.outside, 'secret.txt'), 'a.txt');
    expect((await call('str_replace', { path: 'a.txt', old_str: arena.secret, new_str: 'pwned' })).isError).toBe(true);
    expect((await call('create_file', { path: 'a.txt', content: 'pwned' })).isError).toBe(true);
    expect((await call('file_write', { path: 'a.txt', content: 'pwned' })).isError).toBe(true);
  });

  it('change_directory into links: out of the root never, inside the root as written', async () => {
    await link(relativeTo(arena.outside, 'out'), 'out');
    await link('..', 'sub/back');
    await link('.', 'here');
    for (const path of ['out', 'out/sub', '/workspace/out']) expect((await call('change_directory', { path })).isError).toBe(true);
    expect((await call('change_directory', { path: '.' })).structured.cwd).toBe('/workspace');

    expect((await call('change_directory', { path: 'sub/back/here/sub/back' })).structured.cwd).toBe('/workspace/sub/back/here/sub/back');
    expect((await call('file_read', { path: 'a.txt' })).structured.content).toBe('alpha\n');
    // Five names deep as written, so five '..' reach the root and a sixth is refused.
    expect((await call('view', { path: '../../../../../a.txt' })).isError).toBe(false);
    await expectEveryToolFails('../../../../../../x');
  });

  it('a working directory that is removed or replaced by a link to outside is not followed', async () => {
    await call('change_directory', { path: '/workspace/sub' });
    await fs.rm(host('sub'), { recursive: true });
    await link(arena.outside, 'sub');
    for (const [name, args] of everyTool('secret.txt')) {
      if (name === 'change_directory') continue;
      expect({ name, isError: (await call(name, args)).isError }).toEqual({ name, isError: true });
    }
    expect((await call('file_list', {})).isError).toBe(true);
  });
});

describe('the view-before-edit gate', () => {
  // A fresh session per test: what `client` saw in earlier tests legitimately counts as a view.
  let fresh: Client;
  beforeEach(async () => {
    fresh = await live.server.connect();
    await call('change_directory', { path: '/workspace' }, fresh);
  });

  it('no spelling of the path, no link and no other session counts as a view', async () => {
    await link('a.txt', 'alias.txt');
    expect((await call('view', { path: '/workspace/a.txt' }, second)).isError).toBe(false);
    expect((await call('view', { path: '/workspace' }, fresh)).isError).toBe(false);
    for (const path of ['a.txt', '/workspace/a.txt', '/workspace//a.txt', './a.txt', 'sub/../a.txt', 'alias.txt', '/workspace/sub/../alias.txt']) {
      expect((await call('str_replace', { path, old_str: 'alpha', new_str: 'pwned' }, fresh)).text).toMatch(/^FILE_NOT_VIEWED: /);
      expect((await call('create_file', { path, content: 'pwned' }, fresh)).text).toMatch(/^FILE_NOT_VIEWED: /);
    }
    expect(await fs.readFile(host('a.txt'), 'utf8')).toBe('alpha\n');
  });

  it('a view of a directory, a failed view or a view of another file does not open a file for editing', async () => {
    await call('view', { path: 'sub' }, fresh);
    await call('view', { path: 'sub/b.txt', view_range: [5, 9] }, fresh);
    await call('view', { path: 'a.txt\0' }, fresh);
    await call('view', { path: 'sub/b.txt/..' }, fresh);
    for (const path of ['sub/b.txt', 'a.txt']) {
      expect((await call('str_replace', { path, old_str: 'a', new_str: 'pwned' }, fresh)).text).toMatch(/^FILE_NOT_VIEWED: /);
    }
  });
});

describe('special files and view_range extremes', () => {
  it('a FIFO never blocks a namespace tool and is never replaced', async () => {
    mkfifo(host('pipe'));
    for (const [name, args] of [
      ['view', { path: 'pipe' }], ['view', { path: 'pipe', view_range: [1, 2] }], ['file_read', { path: 'pipe' }],
      ['file_list', { path: 'pipe' }], ['str_replace', { path: 'pipe', old_str: 'a', new_str: 'b' }],
      ['create_file', { path: 'pipe', content: 'x' }], ['file_write', { path: 'pipe', content: 'x' }], ['change_directory', { path: 'pipe' }],
    ] as [string, Record<string, unknown>][]) {
      if (name === 'str_replace' || name === 'create_file') await call('view', { path: 'pipe' });
      expect({ name, isError: (await call(name, args)).isError }).toEqual({ name, isError: true });
    }
    expect((await fs.lstat(host('pipe'))).isFIFO()).toBe(true);
    expect((await call('view', { path: '.' })).isError).toBe(false);
  });

  it('view_range values outside the file or the integers are refused or clamped', async () => {
    await writeTree(live.root, { 'ten.txt': Array.from({ length: 10 }, (_, i) => `l${i + 1}\n`).join('') });
    for (const range of [[1, 1e15], [1, Number.MAX_SAFE_INTEGER], [10, -1], [1, 10]]) {
      const outcome = await call('view', { path: 'ten.txt', view_range: range });
      expect(outcome.isError).toBe(false);
      expect(outcome.text.split('\n').length).toBeLessThanOrEqual(10);
    }
    for (const range of [[0, 5], [-1, -1], [5, 1], [11, 12], [1e15, 1e15 + 1], [2 ** 53, -1], [1, -2], [1.5, 2], ['1', 2], [1], [1, 2, 3], [], [null, 1], [1, 1e300]]) {
      expect({ range, isError: (await call('view', { path: 'ten.txt', view_range: range })).isError }).toEqual({ range, isError: true });
    }
  });
});
