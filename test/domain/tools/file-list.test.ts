import { LINK_TARGET_MARKERS } from '../../../src/domain/tools/view-directory.js';
import { seedLinks, seedTree } from '../../support/domain.js';
import { domainError, editorWorld } from './editor-harness.js';

function seeded() {
  const world = editorWorld();
  seedTree(world.fs, '/ws', { 'b.ts': 'b', 'a.ts': 'aa', '.eslintrc.json': '{}', 'README.md': '# r', 'src/deep.ts': 'd' });
  world.fs.seedSymlink('/ws/link', 'a.ts');
  return world;
}

describe('file_list', () => {
  it('List directory: the immediate files and subdirectories, sorted, with metadata', async () => {
    const result = await seeded().fileList.execute({ sessionId: 's1', path: '/workspace' });
    expect(result.path).toBe('/workspace');
    expect(result.entries.map((entry) => entry.name)).toEqual(['.eslintrc.json', 'README.md', 'a.ts', 'b.ts', 'link', 'src']);
    expect(result.count).toBe(6);
    expect(result.entries[2]).toEqual({ name: 'a.ts', path: '/workspace/a.ts', type: 'file', size: 2, modified_at: '2026-01-01T00:00:00.000Z' });
    expect(result.entries.find((entry) => entry.name === 'src')?.type).toBe('directory');
    expect(result.entries.find((entry) => entry.name === 'link')).toMatchObject({ type: 'symlink', target: '/workspace/a.ts' });
  });

  it('shows a link out of the root as a marker, never its text; other links as namespace paths', async () => {
    const world = seeded();
    world.fs.seedFile('/ro/shared.txt', 's');
    world.fs.seedSymlink('/alias', '/ws');
    seedLinks(world.fs, '/ws', { 'via-alias': '/alias/a.ts', bin: '/usr/local/bin', shared: '../ro/shared.txt', loop: 'loop' });
    const result = await world.fileList.execute({ sessionId: 's1', path: '/workspace' });
    const targets = Object.fromEntries(result.entries.filter((entry) => entry.type === 'symlink').map((entry) => [entry.name, entry.target]));
    expect(targets).toEqual({
      bin: LINK_TARGET_MARKERS.outside,
      link: '/workspace/a.ts',
      loop: LINK_TARGET_MARKERS.loop,
      shared: '/readonly/shared.txt',
      'via-alias': LINK_TARGET_MARKERS.outside,
    });
  });

  it('leaves out .git and what the ignore files of the directory and the folders above it ignore, unless ignore is none (issue 19)', async () => {
    const world = editorWorld();
    seedTree(world.fs, '/ws', {
      '.gitignore': '*.log\n/top-only\n',
      'top-only': 't',
      'pkg/.gitignore': 'dist/\n',
      'pkg/.ignore': '!wanted.log\n',
      'pkg/a.ts': 'a',
      'pkg/x.log': 'x',
      'pkg/wanted.log': 'w',
      'pkg/dist/out.js': 'o',
      'pkg/.git/HEAD': 'h',
      'pkg/top-only': 'kept: the anchored pattern is for the root only',
    });
    const root = await world.fileList.execute({ sessionId: 's1', path: '/workspace' });
    expect(root.entries.map((entry) => entry.name)).toEqual(['.gitignore', 'pkg']);
    expect(root.ignored).toBe(1);
    const pkg = await world.fileList.execute({ sessionId: 's1', path: '/workspace/pkg' });
    expect(pkg.entries.map((entry) => entry.name)).toEqual(['.gitignore', '.ignore', 'a.ts', 'top-only', 'wanted.log']);
    expect(pkg).toMatchObject({ count: 5, ignored: 3 });
    // The directory named is listed even when ignored.
    expect((await world.fileList.execute({ sessionId: 's1', path: '/workspace/pkg/dist' })).entries.map((entry) => entry.name)).toEqual(['out.js']);
    const all = await world.fileList.execute({ sessionId: 's1', path: '/workspace/pkg', ignore: 'none' });
    expect(all.count).toBe(8);
    expect(all).not.toHaveProperty('ignored');
    expect((await world.fileList.execute({ sessionId: 's1', path: '/' })).entries.length).toBeGreaterThan(0);
  });

  it('List with pattern: only matching entries (dotfiles included)', async () => {
    const world = seeded();
    const names = async (pattern: string) =>
      (await world.fileList.execute({ sessionId: 's1', path: '.', pattern })).entries.map((entry) => entry.name);
    expect(await names('*.ts')).toEqual(['a.ts', 'b.ts']);
    expect(await names('*.json')).toEqual(['.eslintrc.json']);
    expect(await names('{README*,src}')).toEqual(['README.md', 'src']);
    expect(await names('@(a|b).ts')).toEqual(['a.ts', 'b.ts']);
    expect(await names('[!ab]*')).toEqual(['.eslintrc.json', 'README.md', 'link', 'src']);
  });

  it('a malformed or negated glob is INVALID_ARGUMENT naming pattern', async () => {
    const world = seeded();
    const failure = async (pattern: string) => (await domainError(world.fileList.execute({ sessionId: 's1', path: '.', pattern }))).toClientText();
    expect(await failure('*.[ch')).toBe("INVALID_ARGUMENT: invalid pattern: unclosed '[' in glob");
    expect(await failure('{a,b')).toBe("INVALID_ARGUMENT: invalid pattern: unclosed '{' in glob");
    expect(await failure('!(*.ts)')).toBe('INVALID_ARGUMENT: invalid pattern: negated extglob !(...) is not supported');
  });

  it('matches a backtracking-prone extglob in linear time (RE2)', async () => {
    const world = seeded();
    world.fs.seedFile(`/ws/${'a'.repeat(40)}b`, '');
    const started = Date.now();
    expect((await world.fileList.execute({ sessionId: 's1', path: '.', pattern: '+(*)e' })).count).toBe(0);
    expect(Date.now() - started).toBeLessThan(1000);
  });

  it('defaults to the working directory', async () => {
    const world = seeded();
    await world.changeDirectory.execute({ sessionId: 's1', path: 'src' });
    expect((await world.fileList.execute({ sessionId: 's1' })).entries.map((entry) => entry.path)).toEqual(['/workspace/src/deep.ts']);
  });

  it('List non-existent directory: NOT_FOUND', async () => {
    const error = await domainError(seeded().fileList.execute({ sessionId: 's1', path: 'nope' }));
    expect(error.toClientText()).toBe('NOT_FOUND: directory not found: /workspace/nope');
  });

  it('a file is not a directory', async () => {
    expect((await domainError(seeded().fileList.execute({ sessionId: 's1', path: 'a.ts' }))).code).toBe('NOT_A_DIRECTORY');
  });

  it('Reject path traversal: .. out of the root is ACCESS_DENIED', async () => {
    expect((await domainError(seeded().fileList.execute({ sessionId: 's1', path: '../outside' }))).code).toBe('ACCESS_DENIED');
  });

  it('/ lists the roots as directories', async () => {
    const result = await seeded().fileList.execute({ sessionId: 's1', path: '/' });
    expect(result.entries.map((entry) => [entry.name, entry.path, entry.type])).toEqual([
      ['readonly', '/readonly', 'directory'],
      ['workspace', '/workspace', 'directory'],
    ]);
  });

  it('needs file_list in the root allowlist', async () => {
    expect((await domainError(seeded().fileList.execute({ sessionId: 's1', path: '/readonly' }))).toClientText()).toBe(
      'TOOL_NOT_ALLOWED: tool file_list not allowed on root readonly',
    );
  });
});
