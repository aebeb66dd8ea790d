import { InMemoryFileSystem } from '../../../src/adapters/outbound/in-memory-file-system.js';
import { CompletePath, MAX_COMPLETIONS } from '../../../src/domain/tools/complete-path.js';
import { domainError, rootAccess } from '../../support/domain.js';
import { makeRoot } from '../../support/roots.js';

function world() {
  const fs = new InMemoryFileSystem();
  fs.seedDirectory('/ws');
  fs.seedDirectory('/ro');
  fs.seedDirectory('/wx');
  fs.seedFile('/outside/secret.txt', 'TOP SECRET\n');
  const access = rootAccess(makeRoot('workspace', '/ws'), makeRoot('reader', '/ro', ['read_file']), makeRoot('work-2', '/wx', ['list_folder']));
  return { fs, complete: new CompletePath(access, fs) };
}

describe('CompletePath', () => {
  it('completes root names that allow list_folder and start with the value, in configured order', () => {
    const { complete } = world();
    expect(complete.roots('w')).toEqual({ values: ['workspace', 'work-2'], total: 2, hasMore: false });
    expect(complete.roots('')).toEqual({ values: ['workspace', 'work-2'], total: 2, hasMore: false });
    expect(complete.roots('r')).toEqual({ values: [], total: 0, hasMore: false });
  });

  it('completes entries of the directory the value names, sorted, directories and in-root links to them with /', async () => {
    const { fs, complete } = world();
    fs.seedFile('/ws/src/main.ts', '');
    fs.seedFile('/ws/src/map.ts', '');
    fs.seedFile('/ws/src/other.ts', '');
    fs.seedDirectory('/ws/src/mods');
    fs.seedSymlink('/ws/src/mlink', 'mods');
    fs.seedSymlink('/ws/src/mout', '/outside');
    fs.seedFile('/ws/README.md', '');
    expect(await complete.paths('workspace', '')).toEqual({ values: ['README.md', 'src/'], total: 2, hasMore: false });
    expect(await complete.paths('workspace', 'src/m')).toEqual({
      values: ['src/main.ts', 'src/map.ts', 'src/mlink/', 'src/mods/', 'src/mout'],
      total: 5,
      hasMore: false,
    });
    expect(await complete.paths('workspace', 'src/mo')).toEqual({ values: ['src/mods/', 'src/mout'], total: 2, hasMore: false });
    expect(await complete.paths('workspace', 'src/mods/')).toEqual({ values: [], total: 0, hasMore: false });
  });

  it('gives at most 100 values, with the total and hasMore', async () => {
    const { fs, complete } = world();
    for (let i = 0; i < 150; i += 1) fs.seedFile(`/ws/many/f${String(i).padStart(3, '0')}`, '');
    const answer = await complete.paths('workspace', 'many/f');
    expect(answer.values).toHaveLength(MAX_COMPLETIONS);
    expect(answer.values[0]).toBe('many/f000');
    expect(answer).toMatchObject({ total: 150, hasMore: true });
  });

  it('completes nothing in a directory that is missing or a file; uses the only root when none is named', async () => {
    const { fs, complete } = world();
    fs.seedFile('/ws/a.txt', '');
    expect(await complete.paths('workspace', 'nope/x')).toEqual({ values: [], total: 0, hasMore: false });
    expect(await complete.paths('workspace', 'a.txt/')).toEqual({ values: [], total: 0, hasMore: false });
    // Two roots allow list_folder here: the root must be named.
    expect((await domainError(complete.paths(undefined, ''))).code).toBe('INVALID_ARGUMENT');
    const single = new CompletePath(rootAccess(makeRoot('only', '/ws')), fs);
    expect(await single.paths(undefined, 'a')).toEqual({ values: ['a.txt'], total: 1, hasMore: false });
  });

  it('is confined and permitted like list_folder: no outside link, no escape, no root without list_folder', async () => {
    const { fs, complete } = world();
    fs.seedSymlink('/ws/out', '/outside');
    fs.seedFile('/ro/r.txt', '');
    expect((await domainError(complete.paths('workspace', 'out/'))).code).toBe('ACCESS_DENIED');
    expect((await domainError(complete.paths('workspace', '../outside/'))).code).toBe('ACCESS_DENIED');
    expect((await domainError(complete.paths('reader', ''))).code).toBe('TOOL_NOT_ALLOWED');
    expect((await domainError(complete.paths('nope', ''))).code).toBe('UNKNOWN_ROOT');
  });
});
