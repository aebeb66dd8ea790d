import { promises as fs } from 'node:fs';
import { basename, join } from 'node:path';
import { snapshotTree, writeTree } from '../support/fixtures.js';
import { pair, useArena, ws } from './adversarial-harness.js';

// Red team: hostile path strings, root names and argument types against every root-scoped tool.

const { live, arena, host, call } = useArena({
  roots: [
    { name: 'workspace', allowedTools: ['*'] },
    { name: 'other', allowedTools: ['*'] },
    { name: 'nocopy', allowedTools: ['read_file', 'list_folder', 'write_file'] },
  ],
});

beforeEach(async () => {
  await writeTree(live.root, { 'seed.txt': 'seed\n', 'dir/a.txt': 'a\n' });
});

/** Every root-scoped tool (copy and move twice: `path` as source, then as destination) aimed at `path`. */
function everyTool(path: string): [string, Record<string, unknown>][] {
  return [
    ['list_folder', ws({ path })],
    ['read_file', ws({ path })],
    ['write_file', ws({ path, content: 'pwned' })],
    ['write_file', ws({ path, content: 'pwned', dry_run: true })],
    ['remove_file', ws({ path })],
    ['patch_file', ws({ path, patch: '@@ -0,0 +1,1 @@\n+pwned\n' })],
    ['patch_file', ws({ path, patch: '@@ -0,0 +1,1 @@\n+pwned\n', dry_run: true })],
    ['create_folder', ws({ path })],
    ['remove_folder', ws({ path })],
    ['stat_file', ws({ path })],
    ['hash_file', ws({ path, algorithm: 'sha256' })],
    ['permissions_file', ws({ path })],
    ['copy', pair(path, 'dst')],
    ['copy', pair('seed.txt', path)],
    ['move', pair(path, 'dst')],
    ['move', pair('seed.txt', path)],
    ['grep', ws({ path, pattern: 'x' })],
    ['glob', ws({ path, pattern: '*' })],
  ];
}

async function expectEveryToolFails(path: string, code: string): Promise<void> {
  const before = await snapshotTree(live.root);
  for (const [name, args] of everyTool(path)) {
    const outcome = await call(name, args);
    expect({ name, path, text: outcome.text.split(':')[0] }).toEqual({ name, path, text: code });
  }
  // read_files answers per path: the one path fails with the same code, and so does the call.
  const batch = await call('read_files', { root: 'workspace', paths: [path] });
  expect({ path, isError: batch.isError, code: batch.structured?.files[0].error?.code }).toEqual({ path, isError: true, code });
  expect(await snapshotTree(live.root)).toEqual(before);
}

describe('.. in every form', () => {
  it.each(['..', '../x', '/..', '/../x', 'a/../../x', 'dir/../../seed.txt', './../x', 'dir/a.txt/../../..', '../../../../../../etc/passwd'])(
    '%j is ACCESS_DENIED for every tool, nothing changes',
    (path) => expectEveryToolFails(path, 'ACCESS_DENIED'),
  );

  it('climbing out and back into the root by its own name is still a climb', async () => {
    await expectEveryToolFails(`../${basename(live.root)}/seed.txt`, 'ACCESS_DENIED');
    await expectEveryToolFails(`dir/../../${basename(arena.outside)}/secret.txt`, 'ACCESS_DENIED');
  });

  it('a trailing /.. that stays inside is the parent, not a way out', async () => {
    expect((await call('read_file', ws({ path: 'dir/a.txt/..' }))).text).toMatch(/^IS_A_DIRECTORY/);
    expect((await call('list_folder', ws({ path: 'dir/..' }))).structured.count).toBe(2);
  });
});

describe('strings that are names, not traversal', () => {
  it.each([
    '....//x', '...', '%2e%2e%2fx', '%2e%2e', '..%2fx', '..\\x', '..\\..\\x', '\u2024\u2024', '\u2025', '．．／x', '\uFE52\uFE52',
    '..\u200b', ' ..', '.. ', 'line\nbreak', 'cr\rname', 'tab\tname', '\u001b[31mred', '~', '$HOME', '*', '-rf', 'a:b',
  ])('%j is a literal name inside the root', async (name) => {
    const written = await call('write_file', ws({ path: name, content: 'literal\n' }));
    expect(written.isError).toBe(false);
    const segments = name.split('/').filter((s) => s !== '');
    expect(await fs.readFile(host(join(...segments)), 'utf8')).toBe('literal\n');
    expect((await call('read_file', ws({ path: name }))).structured.content).toBe('literal\n');
    expect((await call('remove_file', ws({ path: name }))).isError).toBe(false);
  });

  it('a lone surrogate in a name is either refused cleanly or written inside the root', async () => {
    for (const path of ['\ud800', 'a\udfffb', '\ud800/x']) {
      const outcome = await call('write_file', ws({ path, content: 'x' }));
      if (!outcome.isError) expect((await call('read_file', ws({ path }))).isError).toBe(false);
    }
  });
});

describe('host paths and the root itself', () => {
  it('absolute host paths are paths inside the root', async () => {
    for (const path of ['/etc/passwd', join(live.root, 'seed.txt'), join(arena.outside, 'secret.txt'), live.server.rootPath('other')]) {
      const read = await call('read_file', ws({ path }));
      expect(read.text).toMatch(/^NOT_FOUND: /);
      expect(read.text).not.toContain('seed\n');
    }
    expect((await call('write_file', ws({ path: join(arena.outside, 'planted.txt'), content: 'inside' }))).isError).toBe(false);
    expect(await fs.readFile(host(join(arena.outside, 'planted.txt')), 'utf8')).toBe('inside');
  });

  it.each(['', '.', '/', '//', '/./', 'dir/..', './dir/../.'])('%j names the root: it is never removed, moved, overwritten or copied into itself', async (path) => {
    const before = await snapshotTree(live.root);
    const refusals: [string, Record<string, unknown>][] = [
      ['remove_folder', ws({ path })],
      ['remove_file', ws({ path })],
      ['write_file', ws({ path, content: 'x' })],
      ['patch_file', ws({ path, patch: '@@ -0,0 +1,1 @@\n+x\n' })],
      ['move', pair(path, 'moved')],
      ['move', pair(path, 'moved', 'workspace', 'other')],
      ['move', pair(path, 'x', 'other', 'workspace')],
      ['copy', pair(path, 'snap')],
      ['copy', pair(path, path)],
      ['copy', pair('dir', `${path}/dir/inner`)],
    ];
    for (const [name, args] of refusals) {
      expect({ name, args, isError: (await call(name, args)).isError }).toEqual({ name, args, isError: true });
    }
    expect(await snapshotTree(live.root)).toEqual(before);
    expect(await fs.readdir(live.server.rootPath('other'))).toEqual([]);
  });

  it('a whole root copied into another root arrives under its name; the other way round works too', async () => {
    expect((await call('copy', pair('.', '.', 'workspace', 'other'))).structured.destination).toBe('workspace');
    expect(await fs.readFile(host('workspace/seed.txt', 'other'), 'utf8')).toBe('seed\n');
  });

  it('a directory copied or moved into its own subtree through an in-root link does not run away', async () => {
    await fs.symlink('dir', host('alias'));
    const copied = await call('copy', pair('dir', 'alias/inner'));
    if (!copied.isError) expect(copied.structured.files_copied).toBeLessThanOrEqual(1);
    const moved = await call('move', pair('dir', 'alias/inner'));
    expect(moved.isError).toBe(true);
    expect(await fs.readFile(host('dir/a.txt'), 'utf8')).toBe('a\n');
  });

  it('a path that is a/b with doubled slashes is a/b', async () => {
    expect((await call('read_file', ws({ path: 'dir//a.txt' }))).structured.content).toBe('a\n');
    expect((await call('read_file', ws({ path: '//dir///a.txt' }))).structured.content).toBe('a\n');
  });
});

describe('invalid path strings', () => {
  it.each(['\0', 'seed.txt\0', 'dir/\0/a.txt', '\0../../etc/passwd', `dir/a.txt\0${'x'.repeat(10)}`])('%j (NUL) is INVALID_PATH for every tool', (path) =>
    expectEveryToolFails(path, 'INVALID_PATH'),
  );

  it('too long paths and names are INVALID_PATH for every tool', async () => {
    await expectEveryToolFails('a/'.repeat(2049), 'INVALID_PATH');
    await expectEveryToolFails('x'.repeat(256), 'INVALID_PATH');
    await expectEveryToolFails('é'.repeat(128), 'INVALID_PATH');
    await expectEveryToolFails(`dir/${'😀'.repeat(64)}`, 'INVALID_PATH');
  });

  it('a path just under the limits works or fails cleanly', async () => {
    const deep = Array.from({ length: 16 }, () => 'd'.repeat(250)).join('/');
    const outcome = await call('write_file', ws({ path: `${deep}/f.txt`, content: 'deep' }));
    if (!outcome.isError) expect((await call('read_file', ws({ path: `${deep}/f.txt` }))).structured.content).toBe('deep');
    expect((await call('remove_folder', ws({ path: 'd'.repeat(250) }))).isError).toBe(outcome.isError);
  });
});

describe('root names and argument types', () => {
  it.each(['__proto__', 'constructor', 'hasOwnProperty', '', ' workspace', 'workspace/', 'WORKSPACE', 'workspace\0', '*'])(
    'root %j is UNKNOWN_ROOT for every tool',
    async (root) => {
      for (const [name, args] of everyTool('seed.txt')) {
        const aimed = 'root' in args ? { ...args, root } : { ...args, source_root: root };
        expect({ name, code: (await call(name, aimed)).text.split(':')[0] }).toEqual({ name, code: 'UNKNOWN_ROOT' });
        if (!('root' in args)) {
          expect({ name, code: (await call(name, { ...args, dest_root: root })).text.split(':')[0] }).toEqual({ name, code: 'UNKNOWN_ROOT' });
        }
      }
    },
  );

  it('wrong argument types are schema errors, never crashes', async () => {
    for (const bad of [123, ['seed.txt'], { path: 'seed.txt' }, null]) {
      for (const [name, args] of everyTool('seed.txt')) {
        const key = 'path' in args ? 'path' : 'source_path';
        expect((await call(name, { ...args, [key]: bad })).isError).toBe(true);
        expect((await call(name, { ...args, ['root' in args ? 'root' : 'dest_root']: bad })).isError).toBe(true);
      }
    }
    for (const mode of ['__proto__', 'constructor', 'toString', '', 'OVERWRITE ']) {
      expect((await call('write_file', ws({ path: 'seed.txt', content: 'x', mode }))).isError).toBe(true);
    }
    for (const algorithm of ['__proto__', 'constructor', 'sha512', 'md4', '']) {
      expect((await call('hash_file', ws({ path: 'seed.txt', algorithm }))).isError).toBe(true);
    }
    expect((await call('glob', ws({ pattern: '*', type_filter: '__proto__' }))).isError).toBe(true);
    expect((await call('write_file', ws({ path: 'seed.txt', content: { toString: 'x' } }))).isError).toBe(true);
    expect(await fs.readFile(host('seed.txt'), 'utf8')).toBe('seed\n');
  });
});

describe('cross-root allowlists', () => {
  it('copy and move need the tool on both roots; a refusal changes neither', async () => {
    await writeTree(live.server.rootPath('nocopy'), { 'n.txt': 'n\n' });
    const nocopyBefore = await snapshotTree(live.server.rootPath('nocopy'));
    const wsBefore = await snapshotTree(live.root);
    for (const name of ['copy', 'move']) {
      for (const args of [pair('seed.txt', 'x.txt', 'workspace', 'nocopy'), pair('n.txt', 'x.txt', 'nocopy', 'workspace'), pair('n.txt', 'x.txt', 'nocopy', 'nocopy')]) {
        expect((await call(name, args)).text).toMatch(/^TOOL_NOT_ALLOWED: /);
      }
    }
    // The allowlist check comes before the path: a hostile path on a forbidden root is still TOOL_NOT_ALLOWED.
    expect((await call('copy', pair('seed.txt', '../../x', 'workspace', 'nocopy'))).text).toMatch(/^TOOL_NOT_ALLOWED: /);
    expect(await snapshotTree(live.server.rootPath('nocopy'))).toEqual(nocopyBefore);
    expect(await snapshotTree(live.root)).toEqual(wsBefore);
  });
});
